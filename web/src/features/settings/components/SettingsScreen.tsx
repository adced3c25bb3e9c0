// `/o/:org/settings`: the organization's own settings, its custom fields, OpenAPI specs
// and single sign-on (administrators).
import { Stack } from '@mantine/core';
import { AdminFrame } from './AdminFrame.tsx';
import { CustomFieldsSection } from './CustomFieldsSection.tsx';
import { OpenApiSection } from './OpenApiSection.tsx';
import { OrganizationSection } from './OrganizationSection.tsx';
import { SsoSection } from './SsoSection.tsx';

export function SettingsScreen() {
  return (
    <AdminFrame title="Organization settings" needs="admin">
      {(organization) => (
        <Stack gap="xl">
          <OrganizationSection organization={organization} />
          <CustomFieldsSection organizationId={organization.id} />
          <OpenApiSection organizationId={organization.id} />
          <SsoSection organizationId={organization.id} />
        </Stack>
      )}
    </AdminFrame>
  );
}
