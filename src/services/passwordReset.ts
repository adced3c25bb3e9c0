// Password resets by e-mail: whoever asks gets the same answer whatever the address,
// so the answer tells nobody who has an account; a person who has one, on a server
// that sends mail, is mailed a one-time sign-in link (services/sessions.ts), where the
// app lets them set a new password. Asks are limited per address, so nobody can fill
// someone's mailbox.
import { BadRequest, TryAgainLater } from '../errors.ts';
import { oldestPasswordResetRequest, recordPasswordResetRequest } from '../db/repos/passwordResets.ts';
import { findUserByEmail } from '../db/repos/users.ts';
import { newId } from '../lib/ids.ts';
import type { ServiceContext } from './context.ts';
import { queueMail, sendsMail, startMail } from './mail.ts';
import { createSignInLink } from './sessions.ts';

/** At most this many resets per address in the window. */
const RESETS_PER_WINDOW = 3;
const WINDOW_MS = 60 * 60_000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function requestPasswordReset(ctx: ServiceContext, address: string): Promise<Record<string, never>> {
  const email = address.trim().toLowerCase();
  if (!EMAIL.test(email)) throw new BadRequest('email: give a whole e-mail address, such as ada@example.com');
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - WINDOW_MS).toISOString();
  const mail = await ctx.db.transaction().execute(async (trx) => {
    const asked = await recordPasswordResetRequest(trx, { id: newId(), email, requested_at: now.toISOString() }, since, since);
    if (asked > RESETS_PER_WINDOW) {
      const oldest = (await oldestPasswordResetRequest(trx, email, since)) ?? now.toISOString();
      const retryAfterSeconds = Math.max(1, Math.ceil((Date.parse(oldest) + WINDOW_MS - now.getTime()) / 1000));
      throw new TryAgainLater(
        429,
        `A password reset was asked for this address ${RESETS_PER_WINDOW} times in the last hour; look for the e-mails sent, or try again in ${Math.ceil(retryAfterSeconds / 60)} minutes`,
        retryAfterSeconds,
      );
    }
    const user = sendsMail(ctx) ? await findUserByEmail(trx, email) : undefined;
    if (!user) return undefined;
    const { url } = await createSignInLink(ctx, trx, user.id);
    return queueMail(ctx, trx, {
      to: user.email,
      subject: 'Set a new password for Quire',
      text: [
        `Someone, probably you, asked to set a new password for ${user.email} on Quire (${ctx.config.publicUrl}).`,
        '',
        `Open this link to sign in and choose a new password: ${url}`,
        '',
        'The link works once, within an hour. If you did not ask for it, ignore this e-mail: your password stays as it is.',
      ].join('\n'),
    });
  });
  if (mail) startMail(ctx, [mail]);
  return {};
}
