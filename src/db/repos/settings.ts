// Settings shared by every process of one installation.
import { randomBytes } from 'node:crypto';
import type { Db } from '../schema.ts';

/** The value of a setting, created from `create()` by whichever process asks first. */
export async function settingOrCreate(db: Db, key: string, create: () => string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ key, value: create() })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
  return (await findSetting(db, key))!;
}

/** A setting's value, if set. */
export async function findSetting(db: Db, key: string): Promise<string | undefined> {
  return (await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst())?.value;
}

export async function writeSetting(db: Db, key: string, value: string): Promise<void> {
  await db
    .insertInto('settings')
    .values({ key, value })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value }))
    .execute();
}

/** The key that signs links carrying their own permission (file downloads, PDFs), one per installation. */
export function linkSigningKey(db: Db): Promise<string> {
  return settingOrCreate(db, 'link-signing-key', () => randomBytes(32).toString('base64url'));
}
