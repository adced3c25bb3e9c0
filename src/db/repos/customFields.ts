// Custom fields of an organization and their values on spaces.
import type { Db, CustomFieldRow } from '../schema.ts';

export async function insertCustomField(db: Db, field: CustomFieldRow): Promise<void> {
  await db.insertInto('custom_fields').values(field).execute();
}

export function findCustomField(db: Db, organizationId: string, name: string): Promise<CustomFieldRow | undefined> {
  return db
    .selectFrom('custom_fields')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('name', '=', name)
    .executeTakeFirst();
}

export function customFieldsQuery(db: Db, organizationId: string) {
  return db.selectFrom('custom_fields as f').selectAll('f').where('f.organization_id', '=', organizationId);
}

export function customFieldsOfOrganization(db: Db, organizationId: string): Promise<CustomFieldRow[]> {
  return customFieldsQuery(db, organizationId).orderBy('f.created_at').orderBy('f.id').execute();
}

export async function updateCustomField(
  db: Db,
  fieldId: string,
  changes: Partial<Pick<CustomFieldRow, 'title' | 'description' | 'placeholder' | 'options' | 'updated_at'>>,
): Promise<void> {
  await db.updateTable('custom_fields').set(changes).where('id', '=', fieldId).execute();
}

/** Deletes a field and every value it had. */
export async function deleteCustomField(db: Db, fieldId: string): Promise<void> {
  await db.deleteFrom('space_custom_field_values').where('field_id', '=', fieldId).execute();
  await db.deleteFrom('custom_fields').where('id', '=', fieldId).execute();
}

export function customFieldValuesOfSpace(db: Db, spaceId: string) {
  return db.selectFrom('space_custom_field_values').selectAll().where('space_id', '=', spaceId).execute();
}

export function customFieldValuesOfField(db: Db, fieldId: string) {
  return db.selectFrom('space_custom_field_values').selectAll().where('field_id', '=', fieldId).execute();
}

export async function setCustomFieldValue(db: Db, spaceId: string, fieldId: string, value: string): Promise<void> {
  await db
    .insertInto('space_custom_field_values')
    .values({ space_id: spaceId, field_id: fieldId, value })
    .onConflict((conflict) => conflict.columns(['space_id', 'field_id']).doUpdateSet({ value }))
    .execute();
}

export async function deleteCustomFieldValue(db: Db, spaceId: string, fieldId: string): Promise<void> {
  await db.deleteFrom('space_custom_field_values').where('space_id', '=', spaceId).where('field_id', '=', fieldId).execute();
}

export async function deleteCustomFieldValuesOfSpace(db: Db, spaceId: string): Promise<void> {
  await db.deleteFrom('space_custom_field_values').where('space_id', '=', spaceId).execute();
}

export async function copyCustomFieldValues(db: Db, fromSpaceId: string, toSpaceId: string): Promise<void> {
  for (const row of await customFieldValuesOfSpace(db, fromSpaceId)) {
    await setCustomFieldValue(db, toSpaceId, row.field_id, row.value);
  }
}
