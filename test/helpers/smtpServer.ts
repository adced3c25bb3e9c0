// A real SMTP server on 127.0.0.1 (nodemailer's smtp-server) for the e-mail tests: it
// asks for the user and password Quire is configured with, and keeps every message it
// receives, parsed (mailparser).
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export const SMTP_USER = 'quire';
export const SMTP_PASSWORD = 'mail password';

export interface TestSmtpServer {
  port: number;
  /** QUIRE_SMTP_URL for this server. */
  url: string;
  received: ParsedMail[];
  /** The next message to arrive (or one that arrived and was not taken yet), within `timeoutMs`. */
  nextMail(timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

/** A port nothing listens on now, for a server that starts later. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export function smtpUrl(port: number): string {
  return `smtp://${SMTP_USER}:${encodeURIComponent(SMTP_PASSWORD)}@127.0.0.1:${port}`;
}

export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const received: ParsedMail[] = [];
  let taken = 0;
  const waiting: Array<() => void> = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authMethods: ['PLAIN', 'LOGIN'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    // A domain whose mailboxes do not exist: its recipients are refused for good (550).
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@refused.test')) callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
      else callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          waiting.splice(0).forEach((wake) => wake());
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const listening = (server.server.address() as AddressInfo).port;
  return {
    port: listening,
    url: smtpUrl(listening),
    received,
    async nextMail(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (taken >= received.length) {
        if (Date.now() > deadline) throw new Error('No mail arrived');
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return received[taken++];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
