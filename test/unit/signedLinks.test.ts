import { describe, expect, it } from 'vitest';
import { signLink, verifyLink } from '../../src/lib/signedLinks.ts';

describe('signed links', () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const later = new Date(now.getTime() + 60_000);
  const link = signLink({ blob: 'abc' }, 'key', later);

  it('carry their payload until they expire', () => {
    expect(verifyLink<{ blob: string }>(link, 'key', now)?.blob).toBe('abc');
    expect(verifyLink(link, 'key', later)).toBeUndefined();
  });

  it('refuse another key, a changed payload and every other spelling of the signature', () => {
    const [body, signature] = link.split('.');
    expect(verifyLink(link, 'other', now)).toBeUndefined();
    const otherBody = Buffer.from(JSON.stringify({ blob: 'xyz', exp: later.getTime() })).toString('base64url');
    expect(verifyLink(`${otherBody}.${signature}`, 'key', now)).toBeUndefined();
    for (const letter of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_') {
      const spelled = `${body}.${signature.slice(0, -1)}${letter}`;
      if (spelled !== link) expect(verifyLink(spelled, 'key', now), letter).toBeUndefined();
    }
    expect(verifyLink(`${link}.extra`, 'key', now)).toBeUndefined();
    expect(verifyLink('garbage', 'key', now)).toBeUndefined();
  });
});
