// Settings shared by every process of one installation.
import type { Db } from '../schema.ts';

/** The value of a setting, created from `create()` by whichever process asks first. */
export async function settingOrCreate(db: Db, key: string, create: () => string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ key, value: create() })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
  return (await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow()).value;
}
