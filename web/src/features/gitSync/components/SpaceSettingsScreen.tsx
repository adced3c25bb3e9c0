// `/s/:space/~/settings`: the space's Git Sync: where it syncs, how the last import or
// export went, and starting one (people who may edit the space; the API refuses others).
import { Alert, Anchor, Container, Stack, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { Link, useParams } from 'react-router';
import { ErrorScreen } from '../../../components/ErrorScreen.tsx';
import { FullPageLoader } from '../../../components/FullPageLoader.tsx';
import { useSettingsSpace } from '../queries/gitSync.ts';
import { GitSyncSection } from './GitSyncSection.tsx';
import { TONES } from '../../settings/components/tones.ts';

export function SpaceSettingsScreen() {
  const { spaceId = '' } = useParams();
  const { data: space, error, refetch } = useSettingsSpace(spaceId);
  useDocumentTitle(space ? `Settings · ${space.title} · Quire` : 'Space settings · Quire');
  if (error) return <ErrorScreen error={error} onRetry={() => void refetch()} />;
  if (!space) return <FullPageLoader />;
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <Anchor component={Link} to={`/s/${space.id}/`} size="sm">
          {space.emoji ? `${space.emoji} ` : ''}
          {space.title}
        </Anchor>
        <Title order={1} size="h2">
          Space settings
        </Title>
        {space.permissions.triggerGitSync ? (
          <GitSyncSection spaceId={space.id} />
        ) : (
          <Alert color={TONES.notice} variant="outline" role="alert" title="Not for your role">
            You need to be an administrator of this space, or able to edit it, to set up its Git Sync. Ask one of its administrators for that role.
          </Alert>
        )}
      </Stack>
    </Container>
  );
}
