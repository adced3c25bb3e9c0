// The frame of an organization's administration screens: their tabs, and the gate that
// shows a person without the permission the screen needs a sentence instead of its data.
// The API refuses them anyway; the gate keeps the screen from asking.
import { Alert, Anchor, Container, Group, Stack, Title } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { ErrorScreen } from '../../../components/ErrorScreen.tsx';
import { FullPageLoader } from '../../../components/FullPageLoader.tsx';
import type { AdministeredOrganization, OrganizationPermissions } from '../api/organization.ts';
import { useAdministeredOrganization } from '../queries/organization.ts';
import { TONES } from './tones.ts';

const TABS: Array<{ path: string; label: string; also?: string }> = [
  { path: 'members', label: 'Members' },
  { path: 'teams', label: 'Teams' },
  { path: 'sites', label: 'Sites' },
  { path: 'integrations', label: 'Integrations' },
  // An OpenAPI spec's screen is one of the settings'.
  { path: 'settings', label: 'Settings', also: 'openapi' },
];

const NEEDS: Record<'admin' | 'createContent', string> = {
  admin: 'You need to be an administrator of this organization to open this screen. Ask one of its administrators to change your role.',
  createContent:
    'You need to be an administrator of this organization, or have its "create" role, to manage sites. Ask one of its administrators to change your role.',
};

interface Props {
  title: string;
  /** What the caller must be allowed to see the screen. */
  needs: 'admin' | 'createContent';
  /** The screen names itself in its own heading (a site's title), once it has loaded. */
  ownHeading?: boolean;
  children: (organization: AdministeredOrganization) => ReactNode;
}

export function AdminFrame({ title, needs, ownHeading = false, children }: Props) {
  const { organizationId = '' } = useParams();
  const { pathname } = useLocation();
  const { data: organization, error, refetch } = useAdministeredOrganization(organizationId);
  useDocumentTitle(organization ? `${title} · ${organization.title} · Quire` : `${title} · Quire`);
  if (error) return <ErrorScreen error={error} onRetry={() => void refetch()} />;
  if (!organization) return <FullPageLoader />;
  const allowed = organization.permissions[needs as keyof OrganizationPermissions];
  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <nav aria-label="Organization administration">
          <Group gap="xs" wrap="wrap">
            <Anchor component={Link} to={`/o/${organization.id}/`} size="sm">
              {organization.title}
            </Anchor>
            <span aria-hidden="true">·</span>
            {TABS.map((tab) => {
              const current = [tab.path, tab.also].some((path) => path && pathname.startsWith(`/o/${organization.id}/${path}`));
              return (
                <Anchor
                  key={tab.path}
                  component={Link}
                  to={`/o/${organization.id}/${tab.path}`}
                  size="sm"
                  fw={current ? 800 : 500}
                  underline={current ? 'always' : 'hover'}
                  aria-current={current ? 'page' : undefined}
                >
                  {tab.label}
                </Anchor>
              );
            })}
          </Group>
        </nav>
        {(!ownHeading || !allowed) && (
          <Title order={1} size="h2">
            {title}
          </Title>
        )}
        {allowed ? (
          children(organization)
        ) : (
          <Alert color={TONES.notice} variant="outline" role="alert" title="Not for your role">
            {NEEDS[needs]}
          </Alert>
        )}
      </Stack>
    </Container>
  );
}
