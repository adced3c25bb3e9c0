// `/o/:organizationId/`: an organization's home, its collections and spaces.
import { Anchor, Container, Group, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router';
import { FullPageLoader } from '../../../components/FullPageLoader.tsx';
import { LoadFailure } from '../../../components/LoadFailure.tsx';
import { ContentsPanel } from '../../spaces/components/ContentsPanel.tsx';
import { lastOrganization, useOrganization } from '../queries/organizations.ts';

export function OrganizationScreen() {
  const { organizationId = '' } = useParams();
  const { data: organization, error, refetch } = useOrganization(organizationId);
  useDocumentTitle(organization ? `${organization.title} · Quire` : 'Quire');
  useEffect(() => {
    if (organization) lastOrganization.set(organization.id);
  }, [organization]);
  if (error) return <LoadFailure error={error} what="organization" onRetry={() => void refetch()} />;
  if (!organization) return <FullPageLoader />;
  return (
    <Container size="lg" py="xl">
      <Group justify="space-between" align="baseline" mb="md">
        <Title order={1} size="h2">
          {organization.title}
        </Title>
        {organization.permissions?.createContent && (
          <Anchor component={Link} to={`/o/${organization.id}/trash`} size="sm">
            Trash
          </Anchor>
        )}
      </Group>
      <ContentsPanel organizationId={organization.id} canCreate={organization.permissions?.createContent === true} />
    </Container>
  );
}
