// Git's smart HTTP as Quire reads it.
import { describe, expect, it } from 'vitest';
import { withHeadAdvertised } from '../../src/lib/gitRemote.ts';

describe("git's ref advertisement", () => {
  const pkt = (text: string) => `${(Buffer.byteLength(text) + 4).toString(16).padStart(4, '0')}${text}`;
  const oid = 'a'.repeat(40);
  const service = `${pkt('# service=git-upload-pack\n')}0000`;

  it('gains a HEAD line naming the first branch where the server advertises none, keeping every other line', () => {
    const without = Buffer.from(`${service}${pkt(`${oid} refs/heads/docs\0multi_ack side-band-64k\n`)}${pkt(`${'b'.repeat(40)} refs/heads/more\n`)}0000`);
    expect(withHeadAdvertised(without).toString()).toBe(
      `${service}${pkt(`${oid} HEAD\0multi_ack side-band-64k\n`)}${pkt(`${oid} refs/heads/docs\n`)}${pkt(`${'b'.repeat(40)} refs/heads/more\n`)}0000`,
    );
  });

  it('stays as it is with a HEAD, with no ref at all, or when it is not pkt-lines', () => {
    const withHead = Buffer.from(`${service}${pkt(`${oid} HEAD\0caps\n`)}${pkt(`${oid} refs/heads/main\n`)}0000`);
    expect(withHeadAdvertised(withHead)).toBe(withHead);
    const empty = Buffer.from(`${service}${pkt(`${'0'.repeat(40)} capabilities^{}\0caps\n`)}0000`);
    expect(withHeadAdvertised(empty)).toBe(empty);
    const garbage = Buffer.from('not a ref advertisement');
    expect(withHeadAdvertised(garbage)).toBe(garbage);
  });
});
