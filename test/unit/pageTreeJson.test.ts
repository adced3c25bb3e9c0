import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageListAnswerJson } from '../../src/lib/pageTreeJson.ts';

interface Page {
  id: string;
  title: string;
  pages: Page[];
  [field: string]: unknown;
}

const text = (json: string | Buffer) => (typeof json === 'string' ? json : json.toString('utf8'));

/** Trees of pages up to four levels deep with up to `breadth` sub-pages a level, titles in any script, optional fields left undefined. */
const pageTrees = (breadth: number) =>
  fc.letrec<{ page: Page }>((tie) => ({
    page: fc.record({
      id: fc.string({ minLength: 1, maxLength: 8 }),
      title: fc.string({ unit: 'grapheme', maxLength: 12 }),
      emoji: fc.option(fc.constantFrom('1f600', undefined), { nil: undefined }),
      layout: fc.option(fc.record({ width: fc.constantFrom('default', 'wide'), cover: fc.boolean() }), { nil: undefined }),
      pages: fc.oneof({ maxDepth: 4, depthIdentifier: 'tree' }, fc.constant<Page[]>([]), fc.array(tie('page'), { maxLength: breadth })),
    }),
  })).page;

function chain(depth: number): Page {
  let page: Page = { id: `p${depth}`, title: 'leaf', pages: [] };
  for (let level = depth - 1; level >= 0; level--) page = { id: `p${level}`, title: `level ${level}`, pages: [page] };
  return page;
}

/** A page list written page by page, each page presented with its own fields and an empty `pages`, as the page list's presenter gives it. */
const listedPageByPage = (pages: Page[]) =>
  pageListAnswerJson(pages, (page) => page.pages, (page) => ({ ...page, pages: [] }));

describe('page lists presented page by page as they are written', () => {
  it('write exactly JSON.stringify\'s text of the whole list for any tree of pages', () => {
    fc.assert(
      fc.property(fc.array(pageTrees(6), { maxLength: 120 }), (pages) => {
        expect(text(listedPageByPage(pages))).toBe(JSON.stringify({ pages }));
      }),
      { numRuns: 100 },
    );
  });

  it('are not misled by a title that reads like the pages field', () => {
    const pages = [{ id: 'a', title: '"pages":[] \\"pages":[]', pages: [{ id: 'b', title: 'B', pages: [] }] }];
    expect(text(listedPageByPage(pages))).toBe(JSON.stringify({ pages }));
  });

  it('write large lists, wide and deep, as UTF-8 bytes of the same text', () => {
    const wide = Array.from({ length: 5_000 }, (_, index) => ({ id: `p${index}`, title: `Pâge ${index} 📘`, pages: [] }));
    const written = listedPageByPage(wide);
    expect(Buffer.isBuffer(written)).toBe(true);
    expect(text(written)).toBe(JSON.stringify({ pages: wide }));
    const deep = [chain(300), { id: 'after', title: 'After', pages: [] }];
    expect(text(listedPageByPage(deep))).toBe(JSON.stringify({ pages: deep }));
  });

  it('write a page larger than the buffer they are encoded in, between smaller ones, whole', () => {
    const pages = Array.from({ length: 3_000 }, (_, index) => ({ id: `p${index}`, title: index === 1_500 ? 'Ţ'.repeat(600_000) : `Pâge ${index}`, pages: [] }));
    expect(text(listedPageByPage(pages))).toBe(JSON.stringify({ pages }));
  });
});
