// The header's organization menu: the current one (from the path, or the last opened), and the others to switch to.
import { Button, Menu } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { AdminMenuItems } from '../../settings/components/AdminMenuItems.tsx';
import { lastOrganization, useOrganizations } from '../queries/organizations.ts';

export function OrganizationSwitcher() {
  const { organizationId = lastOrganization.get() } = useParams();
  const { data: organizations } = useOrganizations();
  if (!organizations?.length) return null;
  const current = organizations.find((organization) => organization.id === organizationId) ?? organizations[0];
  return (
    <Menu position="bottom-start" width={260} withinPortal={false} trapFocus={false} withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <Button variant="subtle" color="gray" rightSection={<span aria-hidden="true">▾</span>} aria-label={`Organization: ${current.title}. Switch organization`} maw={{ base: 160, sm: 280 }}>
          <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{current.title}</span>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Organizations</Menu.Label>
        {organizations.map((organization) => (
          <Menu.Item key={organization.id} component={Link} to={`/o/${organization.id}/`} aria-current={organization.id === current.id ? 'true' : undefined} fw={organization.id === current.id ? 700 : undefined}>
            {organization.title}
          </Menu.Item>
        ))}
        <AdminMenuItems organization={current} />
      </Menu.Dropdown>
    </Menu>
  );
}
