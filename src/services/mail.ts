// E-mail: what Quire sends (invites, password resets) goes out through the durable job
// queue, queued in the transaction that made it due, so a mail server that is down, or
// a process that stops before sending, delays a message but never loses it.
import { createTransport } from 'nodemailer';
import { enqueueJob, RetryLater, RetryUntilDone, startJobSoon } from '../jobs/queue.ts';
import type { Db } from '../db/schema.ts';
import { seal, unseal } from '../lib/secretBox.ts';
import type { ServiceContext } from './context.ts';

export const SEND_MAIL_JOB = 'send-mail';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** How long one attempt may wait on the mail server before the job is retried. */
const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 };

/** Whether this instance sends e-mail at all (QUIRE_SMTP_URL). */
export function sendsMail(ctx: ServiceContext): boolean {
  return ctx.config.mail !== undefined;
}

/**
 * Queues a message in `db`'s transaction; answers the job to start once it has
 * committed (startMail). Sealed, since a message may carry a sign-in link that the
 * database otherwise keeps only as a hash.
 */
export function queueMail(ctx: ServiceContext, db: Db, message: MailMessage): Promise<string> {
  return enqueueJob(db, ctx.clock, SEND_MAIL_JOB, { sealed: seal(ctx.secretsKey(), JSON.stringify(message)) });
}

/** Sends queued messages from this process now rather than at the worker's next round. */
export function startMail(ctx: ServiceContext, jobIds: string[]): void {
  for (const jobId of jobIds) startJobSoon(ctx, jobId, sendMail);
}

/**
 * The job: one message to the mail server. A server that cannot be reached, or turns
 * Quire's login away (a setting an administrator will mend), is tried again until it
 * takes the message, at most 15 minutes apart; a message the server refuses for good
 * (a 5xx answer, an unknown recipient) is tried the queue's ten times, then waits for
 * a person with its error.
 */
export async function sendMail(ctx: ServiceContext, payload: { sealed: string }): Promise<void> {
  const mail = ctx.config.mail;
  // Turned off since it was queued: nothing could ever send it.
  if (!mail) return;
  const message = JSON.parse(unseal(ctx.secretsKey(), payload.sealed)) as MailMessage;
  const transport = createTransport({ url: mail.smtpUrl, ...SMTP_TIMEOUTS });
  try {
    await transport.sendMail({ from: mail.from, to: message.to, subject: message.subject, text: message.text });
  } catch (error) {
    const failure = error as { responseCode?: number; code?: string; message: string };
    const refused = failure.responseCode !== undefined && failure.responseCode >= 500 && failure.code !== 'EAUTH';
    throw new (refused ? RetryLater : RetryUntilDone)(`The mail to ${message.to} was not sent: ${failure.message}`);
  } finally {
    transport.close();
  }
}
