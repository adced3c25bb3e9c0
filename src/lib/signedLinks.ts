// Links that carry their own permission: a payload, its expiry and an HMAC-SHA256
// signature with the installation's key. Anyone holding the link may use it until it
// expires; changing any byte of it breaks the signature.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function signLink(payload: object, key: string, expiresAt: Date): string {
  const body = Buffer.from(JSON.stringify({ ...payload, exp: expiresAt.getTime() })).toString('base64url');
  const signature = createHmac('sha256', key).update(body).digest('base64url');
  return `${body}.${signature}`;
}

/** The payload of a valid, unexpired link, or undefined. */
export function verifyLink<Payload>(token: string, key: string, now: Date): Payload | undefined {
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined) return undefined;
  // Compared as text: base64 decoding ignores a last character's spare bits, so two
  // spellings would otherwise pass for one signature.
  const expected = Buffer.from(createHmac('sha256', key).update(body).digest('base64url'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let payload: Payload & { exp?: unknown };
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  return typeof payload.exp === 'number' && payload.exp > now.getTime() ? payload : undefined;
}
