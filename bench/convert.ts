// GitBook markdown ⇄ JSONDocument on a 100 KB page of mixed blocks (the three corpus
// pages of test/fixtures/gitbook, repeated), both directions, beside the baseline of
// parsing the same text with plain remark + GFM in the same run: the ratio says what
// GitBook's blocks cost on top of the markdown parse every reader pays anyway. Then the
// same blocks at 1 MB, near the largest page Quire takes: its cost per byte over the
// 100 KB page's says whether parsing stays linear (micromark 4.0.3 made it quadratic in a
// page's lists: a 950 KB page took 13 s, and a merge waited for three such parses).
import { readdirSync, readFileSync } from 'node:fs';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { markdownToDocument } from '../src/content/gitbook/fromMarkdown.ts';
import { documentToMarkdown } from '../src/content/gitbook/toMarkdown.ts';
import type { ContentRef } from '../src/content/gitbook/model.ts';
import { medianMilliseconds } from './support.ts';

export interface ConvertResult {
  bytes: number;
  /** Median milliseconds of each direction and of the baseline parse. */
  toDocumentMs: number;
  toMarkdownMs: number;
  baselineMs: number;
  largeBytes: number;
  /** Median milliseconds of markdown → document for the large page. */
  largeToDocumentMs: number;
}

/** The corpus pages repeated to about `targetBytes`. */
function mixedPage(targetBytes: number): string {
  const folder = new URL('../test/fixtures/gitbook/', import.meta.url);
  const pages = readdirSync(folder).filter((name) => name.endsWith('.md')).map((name) => readFileSync(new URL(name, folder), 'utf8'));
  const parts: string[] = [];
  for (let size = 0, index = 0; size < targetBytes; index++) {
    const page = pages[index % pages.length];
    parts.push(page);
    size += page.length;
  }
  return parts.join('\n\n');
}

export function benchConvert(targetBytes = 100_000, times = 15, largeBytes = 1_000_000): ConvertResult {
  const markdown = mixedPage(targetBytes);
  const large = mixedPage(largeBytes);
  const resolve = (url: string): ContentRef => ({ kind: 'url', url });
  const link = (ref: ContentRef) => (ref.kind === 'url' ? ref.url : '');
  const baseline = unified().use(remarkParse).use(remarkGfm);
  const document = markdownToDocument(markdown, resolve);
  // Warm both paths before measuring.
  documentToMarkdown(document, { link });
  baseline.parse(markdown);
  return {
    bytes: markdown.length,
    toDocumentMs: medianMilliseconds(() => markdownToDocument(markdown, resolve), times),
    toMarkdownMs: medianMilliseconds(() => documentToMarkdown(document, { link }), times),
    baselineMs: medianMilliseconds(() => baseline.parse(markdown), times),
    largeBytes: large.length,
    largeToDocumentMs: medianMilliseconds(() => markdownToDocument(large, resolve), 3),
  };
}
