// The organization menu's way to its administration: the screens the signed-in person's
// permissions in it open (as the organization's answer says), none for the others.
import { Menu } from '@mantine/core';
import { Link } from 'react-router';
import type { Organization } from '../../../api/types.ts';
import type { OrganizationPermissions } from '../api/organization.ts';

const SCREENS: Array<{ path: string; label: string; needs: keyof OrganizationPermissions }> = [
  { path: 'members', label: 'Members', needs: 'admin' },
  { path: 'teams', label: 'Teams', needs: 'admin' },
  { path: 'sites', label: 'Sites', needs: 'createContent' },
  { path: 'integrations', label: 'Integrations', needs: 'admin' },
  { path: 'settings', label: 'Settings', needs: 'admin' },
  // Whoever may create spaces administers the ones they made, so may have some to restore.
  { path: 'trash', label: 'Trash', needs: 'createContent' },
];

export function AdminMenuItems({ organization }: { organization: Organization }) {
  const permissions = (organization as Organization & { permissions?: OrganizationPermissions }).permissions;
  const screens = SCREENS.filter((screen) => permissions?.[screen.needs]);
  if (screens.length === 0) return null;
  return (
    <>
      <Menu.Divider />
      <Menu.Label>Administer {organization.title}</Menu.Label>
      {screens.map((screen) => (
        <Menu.Item key={screen.path} component={Link} to={`/o/${organization.id}/${screen.path}`}>
          {screen.label}
        </Menu.Item>
      ))}
    </>
  );
}
