// `/`: the organization last opened here, or the first; a person in none is told how to join one.
import { Container, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { Navigate } from 'react-router';
import { ErrorScreen } from '../../../components/ErrorScreen.tsx';
import { FullPageLoader } from '../../../components/FullPageLoader.tsx';
import { lastOrganization, useOrganizations } from '../queries/organizations.ts';

export function HomeScreen() {
  useDocumentTitle('Quire');
  const { data: organizations, error, refetch } = useOrganizations();
  if (error) return <ErrorScreen error={error} onRetry={() => void refetch()} />;
  if (!organizations) return <FullPageLoader />;
  const last = lastOrganization.get();
  const organization = organizations.find((candidate) => candidate.id === last) ?? organizations[0];
  if (organization) return <Navigate to={`/o/${organization.id}/`} replace />;
  return (
    <Container size="sm" py="xl">
      <Title order={1} size="h2">
        No organization yet
      </Title>
      <Text mt="sm">You are not a member of any organization. Ask an administrator of yours for an invite link, and open it while signed in.</Text>
    </Container>
  );
}
