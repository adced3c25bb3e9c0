// The users table: one row per person, across organizations.
import type { Db, UserRow } from '../schema.ts';

/** Every column but the password's hash, which only the sign-in queries below read. */
const USER_COLUMNS = ['id', 'email', 'display_name', 'photo_url', 'created_at'] as const;

export function findUserById(db: Db, userId: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', userId).executeTakeFirst();
}

export function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(USER_COLUMNS).where('email', '=', email.toLowerCase()).executeTakeFirst();
}

/** A person with their password's hash, for signing in. */
export function findUserWithPassword(db: Db, by: { email: string } | { userId: string }) {
  return db
    .selectFrom('users')
    .select([...USER_COLUMNS, 'password_hash'])
    .$if('email' in by, (q) => q.where('email', '=', (by as { email: string }).email.toLowerCase()))
    .$if('userId' in by, (q) => q.where('id', '=', (by as { userId: string }).userId))
    .executeTakeFirst();
}

export async function setPasswordHash(db: Db, userId: string, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

export async function insertUser(db: Db, user: UserRow): Promise<UserRow> {
  await db.insertInto('users').values(user).execute();
  return user;
}
