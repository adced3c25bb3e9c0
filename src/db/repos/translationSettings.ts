// Translation settings of organizations.
import type { Db, TranslationSettingsRow } from '../schema.ts';

export async function insertTranslationSettings(db: Db, settings: TranslationSettingsRow): Promise<void> {
  await db.insertInto('translation_settings').values(settings).execute();
}

export function findTranslationSettings(db: Db, organizationId: string, settingsId: string) {
  return db
    .selectFrom('translation_settings')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', settingsId)
    .executeTakeFirst();
}

export function translationSettingsQuery(db: Db, organizationId: string) {
  return db.selectFrom('translation_settings as t').selectAll('t').where('t.organization_id', '=', organizationId);
}

export async function updateTranslationSettings(
  db: Db,
  settingsId: string,
  changes: Pick<TranslationSettingsRow, 'title' | 'updated_at'> & Partial<Pick<TranslationSettingsRow, 'languages'>>,
): Promise<void> {
  await db.updateTable('translation_settings').set(changes).where('id', '=', settingsId).execute();
}

export async function deleteTranslationSettings(db: Db, settingsId: string): Promise<void> {
  await db.deleteFrom('translation_settings').where('id', '=', settingsId).execute();
}
