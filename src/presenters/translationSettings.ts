// TranslationSettings objects.
import type { TranslationLanguage } from '../lib/languages.ts';
import { organizationResourcePermissions, type OrganizationAccess } from '../policies/organization.ts';
import type { TranslationSettingsRow } from '../db/schema.ts';

export function presentTranslationSettings(publicUrl: string, settings: TranslationSettingsRow, access: OrganizationAccess) {
  return {
    object: 'translation-settings' as const,
    id: settings.id,
    title: settings.title,
    languages: JSON.parse(settings.languages) as TranslationLanguage[],
    createdAt: settings.created_at,
    updatedAt: settings.updated_at,
    permissions: organizationResourcePermissions(access),
    urls: { location: `${publicUrl}/v1/orgs/${settings.organization_id}/translations/${settings.id}` },
  };
}
