// Translation settings: the languages an organization translates its content into.
// Members with a role read them; administrators change them.
import { NotFound } from '../errors.ts';
import {
  deleteTranslationSettings,
  findTranslationSettings,
  insertTranslationSettings,
  translationSettingsQuery,
  updateTranslationSettings,
} from '../db/repos/translationSettings.ts';
import type { Db } from '../db/schema.ts';
import { paginate, type PageRequest } from '../db/pagination.ts';
import { isoNow } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import type { TranslationLanguage } from '../lib/languages.ts';
import { presentTranslationSettings } from '../presenters/translationSettings.ts';
import type { Actor, ServiceContext } from './context.ts';
import { authorizeResourceInOrganization } from './organizations.ts';

export interface TranslationSettingsInput {
  title: string;
  languages?: TranslationLanguage[];
}

async function requireSettings(db: Db, organizationId: string, settingsId: string) {
  const settings = await findTranslationSettings(db, organizationId, settingsId);
  if (!settings) throw new NotFound(`No translation settings with id "${settingsId}" in this organization`);
  return settings;
}

/** Languages in the order given, each once. */
function languageList(languages: TranslationLanguage[]): string {
  return JSON.stringify([...new Set(languages)]);
}

export async function listTranslationSettings(ctx: ServiceContext, actor: Actor, organizationId: string, page: PageRequest) {
  const access = await authorizeResourceInOrganization(ctx, actor, organizationId, 'view');
  return paginate(
    translationSettingsQuery(ctx.db, organizationId),
    [
      { column: 't.created_at', direction: 'desc', value: (row) => row.created_at },
      { column: 't.id', direction: 'desc', value: (row) => row.id },
    ],
    page,
    (row) => presentTranslationSettings(ctx.config.publicUrl, row, access),
  );
}

export async function createTranslationSettings(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  input: TranslationSettingsInput,
) {
  const access = await authorizeResourceInOrganization(ctx, actor, organizationId, 'edit');
  const now = isoNow(ctx.clock);
  const settings = {
    id: newId(),
    organization_id: organizationId,
    title: input.title,
    languages: languageList(input.languages ?? []),
    created_at: now,
    updated_at: now,
  };
  await insertTranslationSettings(ctx.db, settings);
  return presentTranslationSettings(ctx.config.publicUrl, settings, access);
}

export async function getTranslationSettings(ctx: ServiceContext, actor: Actor, organizationId: string, settingsId: string) {
  const access = await authorizeResourceInOrganization(ctx, actor, organizationId, 'view');
  return presentTranslationSettings(ctx.config.publicUrl, await requireSettings(ctx.db, organizationId, settingsId), access);
}

/** PUT: the title is replaced; languages too when given. */
export async function replaceTranslationSettings(
  ctx: ServiceContext,
  actor: Actor,
  organizationId: string,
  settingsId: string,
  input: TranslationSettingsInput,
) {
  const access = await authorizeResourceInOrganization(ctx, actor, organizationId, 'edit');
  await requireSettings(ctx.db, organizationId, settingsId);
  await updateTranslationSettings(ctx.db, settingsId, {
    title: input.title,
    ...(input.languages !== undefined ? { languages: languageList(input.languages) } : {}),
    updated_at: isoNow(ctx.clock),
  });
  return presentTranslationSettings(ctx.config.publicUrl, await requireSettings(ctx.db, organizationId, settingsId), access);
}

export async function removeTranslationSettings(ctx: ServiceContext, actor: Actor, organizationId: string, settingsId: string) {
  await authorizeResourceInOrganization(ctx, actor, organizationId, 'edit');
  await requireSettings(ctx.db, organizationId, settingsId);
  await deleteTranslationSettings(ctx.db, settingsId);
}
