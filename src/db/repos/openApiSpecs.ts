// OpenAPI specs of organizations and the versions their processing stored.
import type { Db, OpenApiSpecRow, OpenApiSpecVersionRow } from '../schema.ts';

export async function insertOpenApiSpec(db: Db, spec: OpenApiSpecRow): Promise<void> {
  await db.insertInto('openapi_specs').values(spec).execute();
}

export function findOpenApiSpecBySlug(db: Db, organizationId: string, slug: string): Promise<OpenApiSpecRow | undefined> {
  return db
    .selectFrom('openapi_specs')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('slug', '=', slug)
    .executeTakeFirst();
}

export function findOpenApiSpec(db: Db, specId: string): Promise<OpenApiSpecRow | undefined> {
  return db.selectFrom('openapi_specs').selectAll().where('id', '=', specId).executeTakeFirst();
}

export function openApiSpecsQuery(db: Db, organizationId: string) {
  return db.selectFrom('openapi_specs as s').selectAll('s').where('s.organization_id', '=', organizationId);
}

export async function updateOpenApiSpec(
  db: Db,
  specId: string,
  changes: Partial<Omit<OpenApiSpecRow, 'id' | 'organization_id' | 'slug' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('openapi_specs').set(changes).where('id', '=', specId).execute();
}

export async function deleteOpenApiSpec(db: Db, specId: string): Promise<void> {
  await db.deleteFrom('openapi_spec_versions').where('spec_id', '=', specId).execute();
  await db.deleteFrom('openapi_specs').where('id', '=', specId).execute();
}

export async function insertOpenApiSpecVersion(db: Db, version: OpenApiSpecVersionRow): Promise<void> {
  await db.insertInto('openapi_spec_versions').values(version).execute();
}

export function findOpenApiSpecVersion(db: Db, specId: string, versionId: string): Promise<OpenApiSpecVersionRow | undefined> {
  return db
    .selectFrom('openapi_spec_versions')
    .selectAll()
    .where('spec_id', '=', specId)
    .where('id', '=', versionId)
    .executeTakeFirst();
}

export function openApiSpecVersionsQuery(db: Db, specId: string) {
  return db
    .selectFrom('openapi_spec_versions as v')
    .select(['v.id', 'v.spec_id', 'v.digest', 'v.url', 'v.created_at'])
    .where('v.spec_id', '=', specId);
}
