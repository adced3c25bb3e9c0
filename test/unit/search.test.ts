import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { excerpter, parseSearchQuery, queryMatcher, sectionsOf } from '../../src/content/search.ts';

describe('search text and queries', () => {
  it('splits a page into the text before the first heading and one section per heading', () => {
    expect(sectionsOf('Intro **text**.\n\n## First step\n\nDo `this`.\n\n### Detail\n\n- a\n- b', 'Guide')).toEqual([
      { anchor: '', heading: 'Guide', text: 'Intro text.' },
      { anchor: 'first-step', heading: 'First step', text: 'Do this.' },
      { anchor: 'detail', heading: 'Detail', text: 'a\nb' },
    ]);
    expect(sectionsOf('', 'Empty')).toEqual([]);
  });

  it('parses words, quoted phrases and a last-word prefix, ignoring punctuation', () => {
    expect(parseSearchQuery('Install "quick start" confi')).toEqual({
      terms: [
        { words: ['install'], prefix: false },
        { words: ['quick', 'start'], prefix: false },
        { words: ['confi'], prefix: true },
      ],
    });
    expect(parseSearchQuery('done ').terms).toEqual([{ words: ['done'], prefix: false }]);
    expect(parseSearchQuery('"* OR NEAR(" -').terms).toEqual([{ words: ['or', 'near'], prefix: false }]);
  });

  it('leaves out stop words standing alone, as PostgreSQL does, but not in phrases or as a word being typed', () => {
    expect(parseSearchQuery('how to install the cli ').terms).toEqual([
      { words: ['install'], prefix: false },
      { words: ['cli'], prefix: false },
    ]);
    expect(parseSearchQuery('"the end" of').terms).toEqual([
      { words: ['the', 'end'], prefix: false },
      { words: ['of'], prefix: true },
    ]);
  });

  it('never lets anything typed become anything but letters and digits', () => {
    fc.assert(
      fc.property(fc.string(), (typed) => {
        for (const term of parseSearchQuery(typed).terms) {
          for (const word of term.words) expect(word).toMatch(/^[\p{L}\p{N}]+$/u);
        }
      }),
    );
  });

  it('cuts the excerpt around whichever query word comes first', () => {
    const text = `${'Filler words here. '.repeat(30)}Seals rest on the ice. ${'More filler. '.repeat(30)}Walruses too.`;
    const excerpt = excerpter(parseSearchQuery('walrus seal'))(text);
    expect(excerpt).toContain('Seals rest');
    expect(excerpter(parseSearchQuery('narwhal'))(text).startsWith('Filler')).toBe(true);
  });

  it('cuts an excerpt around the first match', () => {
    const text = `${'Lorem ipsum dolor sit amet. '.repeat(20)}The walrus appears here. ${'More filler text. '.repeat(20)}`;
    const excerpt = excerpter(parseSearchQuery('walrus '))(text);
    expect(excerpt).toContain('walrus');
    expect(excerpt.startsWith('…')).toBe(true);
    expect(excerpt.length).toBeLessThanOrEqual(170);
  });

  it('cuts the excerpt around the match in a text whose capitals lower-case to two characters (İ)', () => {
    const text = `${'İİİİ İİİİ. '.repeat(40)}The walrus appears here. ${'More filler text. '.repeat(20)}`;
    const excerpt = excerpter(parseSearchQuery('walrus'))(text);
    expect(excerpt).toContain('İİİİ. The walrus appears here.');
    // A quarter of the width before the match, after the ellipsis: on the lower-cased copy's position it started 80 characters on, the match first.
    expect(excerpt.indexOf('walrus')).toBe(1 + 40);
  });
});

describe('a text matched against a query outside the index', () => {
  it('holds a query when it holds every word, by the start the excerpt looks for, and the last word as a prefix', () => {
    const matches = (query: string, text: string) => queryMatcher(parseSearchQuery(query))(text);
    expect(matches('dedicated regions', 'Pick a Dedicated region.')).toBe(true);
    expect(matches('installing', 'Install the agent')).toBe(true);
    expect(matches('"dedicated region" beta', 'A dedicated region.')).toBe(false);
    expect(matches('dedic', 'Dedicated')).toBe(true);
    expect(matches('region', 'subregion')).toBe(false);
    expect(matches('', 'anything')).toBe(true);
  });

  it('holds every text that contains each of the query words', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,9}$/), { minLength: 1, maxLength: 4 }), fc.array(fc.stringMatching(/^[a-z]{1,9}$/), { maxLength: 8 }), (query, filler) => {
        const text = [...filler, ...query].join(' ');
        expect(queryMatcher(parseSearchQuery(query.join(' ')))(text)).toBe(true);
      }),
    );
  });
});
