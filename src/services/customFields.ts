// Custom fields: typed metadata an organization defines and sets on its spaces.
import { BadRequest, Conflict, NotFound } from '../errors.ts';
import { customFieldValuesOfField, customFieldValuesOfSpace, customFieldsOfOrganization, customFieldsQuery, deleteCustomField, deleteCustomFieldValue, findCustomField, insertCustomField, setCustomFieldValue, updateCustomField } from '../db/repos/customFields.ts';
import type { Db, CustomFieldRow } from '../db/schema.ts';
import { paginate, type PageRequest } from '../db/pagination.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { presentCustomField, presentCustomFieldValue } from '../presenters/customField.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeSpaceDrafts } from './contentAccess.ts';
import { authorizeInOrganization } from './organizations.ts';

export const CUSTOM_FIELD_TYPES = ['text', 'number', 'boolean', 'tags', 'select:single', 'select:multi'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];
export type CustomFieldValue = string | number | boolean | string[];

const MAX_TEXT = 256;

function isSelect(type: string): boolean {
  return type === 'select:single' || type === 'select:multi';
}

async function requireField(db: Db, organizationId: string, name: string): Promise<CustomFieldRow> {
  const field = await findCustomField(db, organizationId, name);
  if (!field) throw new NotFound(`No custom field named "${name}" in this organization`);
  return field;
}

function checkOptions(type: string, options: string[] | undefined): string | null {
  if (!isSelect(type)) {
    if (options !== undefined) throw new BadRequest(`options: only select fields have options, not "${type}" fields`);
    return null;
  }
  if (!options) throw new BadRequest(`options: a ${type} field needs its list of options`);
  if (new Set(options).size !== options.length) throw new BadRequest('options: each option may appear only once');
  return JSON.stringify(options);
}

/** Checks a value against a field's type and options; answers what a person should fix. */
export function validateValue(field: CustomFieldRow, value: unknown): CustomFieldValue {
  const where = `values.${field.name}.value`;
  const options = field.options ? (JSON.parse(field.options) as string[]) : [];
  const isText = (item: unknown): item is string => typeof item === 'string' && item.length <= MAX_TEXT;
  switch (field.type) {
    case 'text':
      if (isText(value)) return value;
      throw new BadRequest(`${where} must be a string of at most ${MAX_TEXT} characters`);
    case 'number':
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      throw new BadRequest(`${where} must be a number`);
    case 'boolean':
      if (typeof value === 'boolean') return value;
      throw new BadRequest(`${where} must be true or false`);
    case 'tags':
      if (Array.isArray(value) && value.every(isText)) return value;
      throw new BadRequest(`${where} must be a list of strings of at most ${MAX_TEXT} characters`);
    case 'select:single': {
      const chosen = Array.isArray(value) && value.length === 1 ? value[0] : value;
      if (typeof chosen === 'string' && options.includes(chosen)) return value as CustomFieldValue;
      throw new BadRequest(`${where} must be one of the options: ${options.map((o) => `"${o}"`).join(', ')}`);
    }
    case 'select:multi':
      if (Array.isArray(value) && value.every((item) => typeof item === 'string' && options.includes(item))) {
        if (new Set(value).size === value.length) return value;
      }
      throw new BadRequest(`${where} must be a list of distinct options among: ${options.map((o) => `"${o}"`).join(', ')}`);
    default:
      throw new BadRequest(`${where}: the field has an unknown type "${field.type}"`);
  }
}

export async function listCustomFields(ctx: ServiceContext, actor: Actor, organizationId: string, page: PageRequest) {
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'view');
  return paginate(
    customFieldsQuery(ctx.db, organizationId),
    [
      { column: 'f.created_at', direction: 'desc', value: (row) => row.created_at },
      { column: 'f.id', direction: 'desc', value: (row) => row.id },
    ],
    page,
    (row) => presentCustomField(ctx.config.publicUrl, row),
  );
}

export interface CustomFieldInput {
  name: string;
  type: CustomFieldType;
  title?: string;
  description?: string;
  placeholder?: string;
  options?: string[];
}

export async function createCustomField(ctx: ServiceContext, actor: Actor, organizationId: string, input: CustomFieldInput) {
  const field = await ctx.db.transaction().execute(async (trx) => {
    await authorizeInOrganization(ctx, trx, actor, organizationId, 'admin');
    if (await findCustomField(trx, organizationId, input.name)) {
      throw new Conflict(`A custom field named "${input.name}" already exists in this organization`);
    }
    const now = isoNow(ctx.clock);
    const row: CustomFieldRow = {
      id: newId(),
      organization_id: organizationId,
      name: input.name,
      type: input.type,
      title: input.title ?? input.name,
      description: input.description ?? '',
      placeholder: input.placeholder ?? '',
      options: checkOptions(input.type, input.options),
      created_at: now,
      updated_at: now,
    };
    await insertCustomField(trx, row);
    return row;
  });
  return presentCustomField(ctx.config.publicUrl, field);
}

export async function getCustomField(ctx: ServiceContext, actor: Actor, organizationId: string, name: string) {
  await authorizeInOrganization(ctx, ctx.db, actor, organizationId, 'view');
  return presentCustomField(ctx.config.publicUrl, await requireField(ctx.db, organizationId, name));
}

export async function patchCustomField(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  name: string,
  changes: Omit<Partial<CustomFieldInput>, 'name' | 'type'>,
) {
  const field = await ctx.db.transaction().execute(async (trx) => {
    await authorizeInOrganization(ctx, trx, actor, organizationId, 'admin');
    const current = await requireField(trx, organizationId, name);
    const update: Parameters<typeof updateCustomField>[2] = { updated_at: isoNow(ctx.clock) };
    if (changes.title !== undefined) update.title = changes.title;
    if (changes.description !== undefined) update.description = changes.description;
    if (changes.placeholder !== undefined) update.placeholder = changes.placeholder;
    if (changes.options !== undefined) update.options = checkOptions(current.type, changes.options);
    await updateCustomField(trx, current.id, update);
    const updated = { ...current, ...update };
    if (changes.options !== undefined) await dropValuesOutsideOptions(trx, updated);
    return updated;
  });
  return presentCustomField(ctx.config.publicUrl, field);
}

/** After options shrink, values naming a removed option are dropped (or trimmed, for multi-selects). */
async function dropValuesOutsideOptions(db: Db, field: CustomFieldRow): Promise<void> {
  const options = new Set(JSON.parse(field.options!) as string[]);
  for (const row of await customFieldValuesOfField(db, field.id)) {
    const value = JSON.parse(row.value) as CustomFieldValue;
    const chosen = Array.isArray(value) ? value : [value as string];
    const kept = chosen.filter((option) => options.has(option));
    if (kept.length === chosen.length) continue;
    if (kept.length === 0 || field.type === 'select:single') await deleteCustomFieldValue(db, row.space_id, field.id);
    else await setCustomFieldValue(db, row.space_id, field.id, JSON.stringify(kept));
  }
}

export async function removeCustomField(ctx: ServiceContext, actor: Actor, organizationId: string, name: string) {
  await ctx.db.transaction().execute(async (trx) => {
    await authorizeInOrganization(ctx, trx, actor, organizationId, 'admin');
    await deleteCustomField(trx, (await requireField(trx, organizationId, name)).id);
  });
}

export async function getSpaceCustomFields(ctx: ServiceContext, actor: Actor, spaceId: string) {
  const { space } = await authorizeSpaceDrafts(ctx.db, actor, spaceId, 'view');
  const [fields, values] = await Promise.all([
    customFieldsOfOrganization(ctx.db, space.organization_id),
    customFieldValuesOfSpace(ctx.db, spaceId),
  ]);
  const valueByField = new Map(values.map((row) => [row.field_id, row.value]));
  return fields.map((field) => presentCustomFieldValue(ctx.config.publicUrl, field, valueByField.get(field.id)));
}

/** Sets (or, with null, clears) custom field values on a space; all or nothing. */
export async function patchSpaceCustomFields(
  ctx: ServiceContext,
  actor: Actor,
  spaceId: string,
  values: Record<string, { value: unknown }>,
) {
  await ctx.db.transaction().execute(async (trx) => {
    const { space } = await authorizeSpaceDrafts(trx, actor, spaceId, 'edit');
    for (const [name, { value }] of Object.entries(values)) {
      const field = await findCustomField(trx, space.organization_id, name);
      if (!field) throw new BadRequest(`values.${name}: no custom field with that name in this organization`);
      if (value === null) await deleteCustomFieldValue(trx, spaceId, field.id);
      else await setCustomFieldValue(trx, spaceId, field.id, JSON.stringify(validateValue(field, value)));
    }
  });
}
