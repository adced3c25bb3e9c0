// The sign-in rate limits: 5 failed passwords per account and 20 per network address in
// 15 minutes. Failures are rows of the database, so every process counts the same ones.
import { clearSignInFailures, countSignInFailures, insertSignInFailure, pruneSignInFailures } from '../db/repos/sessions.ts';
import type { Db } from '../db/schema.ts';
import { TryAgainLater } from '../errors.ts';
import { newId } from '../lib/ids.ts';
import type { ServiceContext } from './context.ts';

const WINDOW_MS = 15 * 60 * 1000;
const LIMITS = { account: 5, address: 20 } as const;
const WHO = { account: 'this account', address: 'your address' } as const;

/** Whom a failure counts against: the account named (known or not) and, at sign-in, the address asking. */
export interface FailureKeys {
  account: string;
  address?: string;
}

export function failureKeys(email: string, address?: string): FailureKeys {
  return { account: `account:${email.trim().toLowerCase()}`, ...(address === undefined ? {} : { address: `address:${address}` }) };
}

/** 429, with when to retry, once any of the keys reached its limit; the right password waits too. */
export async function refuseWhenLimited(ctx: ServiceContext, keys: FailureKeys): Promise<void> {
  const now = ctx.clock.now().getTime();
  const named = (['account', 'address'] as const).filter((kind) => keys[kind] !== undefined);
  const counts = await countSignInFailures(ctx.db, named.map((kind) => keys[kind]!), new Date(now - WINDOW_MS).toISOString());
  for (const kind of named) {
    const failures = counts.get(keys[kind]!);
    if (!failures || failures.count < LIMITS[kind]) continue;
    const retryAt = new Date(Date.parse(failures.oldest) + WINDOW_MS);
    const seconds = Math.max(1, Math.ceil((retryAt.getTime() - now) / 1000));
    throw new TryAgainLater(
      429,
      `Too many failed sign-ins for ${WHO[kind]} (${LIMITS[kind]} in ${WINDOW_MS / 60_000} minutes); try again in ${Math.ceil(seconds / 60)} minute(s), at ${retryAt.toISOString()}, or ask an administrator for a sign-in link`,
      seconds,
    );
  }
}

export async function recordFailure(ctx: ServiceContext, keys: FailureKeys): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction().execute(async (trx) => {
    // Failures older than the window count for nothing: dropped, so the table stays small.
    await pruneSignInFailures(trx, new Date(now.getTime() - WINDOW_MS).toISOString());
    for (const key of [keys.account, keys.address]) {
      if (key !== undefined) await insertSignInFailure(trx, newId(), key, now.toISOString());
    }
  });
}

/** The right password clears the account's failures (not the address's). */
export async function clearAccountFailures(trx: Db, keys: FailureKeys): Promise<void> {
  await clearSignInFailures(trx, keys.account);
}
