// The users table: one row per person, across organizations.
import type { Db, UserRow } from '../schema.ts';

export function findUserById(db: Db, userId: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
}

export async function insertUser(db: Db, user: UserRow): Promise<UserRow> {
  await db.insertInto('users').values(user).execute();
  return user;
}
