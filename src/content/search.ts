// Search text from content, and search queries from what people type. Pure: the
// database turns a parsed query into its own full-text syntax (src/db/fullText.ts).
import { markdownToDocument } from './document.ts';
import { plainText } from './gitbook/model.ts';

export interface PageSection {
  /** The heading's anchor; "" for the text before the first heading. */
  anchor: string;
  /** The heading's text; the page title for the text before the first heading. */
  heading: string;
  /** The section's plain text, without markdown syntax: the words inside every block, tabs, hints, tables and captions included. */
  text: string;
}

/** Splits a page into the parts under each heading, as search shows them. */
export function sectionsOf(markdown: string, pageTitle: string): PageSection[] {
  // Links do not matter to the words: every target reads as a URL.
  const document = markdownToDocument(markdown, (url) => ({ kind: 'url', url }));
  const sections: PageSection[] = [];
  let current: { anchor: string; heading: string; parts: string[] } = { anchor: '', heading: pageTitle, parts: [] };
  const close = () => {
    const text = current.parts.filter(Boolean).join('\n').trim();
    if (text || current.anchor) sections.push({ anchor: current.anchor, heading: current.heading, text });
  };
  for (const node of document.nodes) {
    if (node.type.startsWith('heading-')) {
      close();
      current = { anchor: String(node.meta?.id ?? ''), heading: plainText(node), parts: [] };
    } else {
      current.parts.push(plainText(node));
    }
  }
  close();
  return sections;
}

/** A query as typed: words (the last possibly a prefix) and quoted phrases, all required. */
export interface SearchQuery {
  terms: Array<{ words: string[]; prefix: boolean }>;
}

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * English words too common to tell pages apart: PostgreSQL's English configuration
 * ignores exactly these, so SQLite is told to ignore them too, and both engines find
 * the same pages.
 */
const STOP_WORDS = new Set(
  ('i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself ' +
    'it its itself they them their theirs themselves what which who whom this that these those am is are was were be ' +
    'been being have has had having do does did doing a an the and but if or because as until while of at by for with ' +
    'about against between into through during before after above below to from up down in out on off over under ' +
    'again further then once here there when where why how all any both each few more most other some such no nor not ' +
    'only own same so than too very s t can will just don should now').split(' '),
);

/**
 * Parses what a person typed: "quoted phrases" stay together, other words stand
 * alone, and the last word, unless followed by a space or closing a phrase, also
 * matches as a prefix (search as you type). Stop words standing alone are left out.
 * Punctuation is never syntax.
 */
export function parseSearchQuery(input: string): SearchQuery {
  const terms: SearchQuery['terms'] = [];
  const pattern = /"([^"]*)"?|[^\s"]+/g;
  for (const match of input.matchAll(pattern)) {
    const words = (match[1] ?? match[0]).toLowerCase().match(WORD) ?? [];
    if (words.length === 0) continue;
    if (match[1] !== undefined) terms.push({ words, prefix: false });
    else for (const word of words) terms.push({ words: [word], prefix: false });
  }
  const last = terms[terms.length - 1];
  if (last && last.words.length === 1 && /[\p{L}\p{N}]$/u.test(input)) last.prefix = true;
  // A stop word still counts as the start of a longer word being typed ("th" → "theme").
  return { terms: terms.filter((term) => term.words.length > 1 || term.prefix || !STOP_WORDS.has(term.words[0])) };
}

/** Each query word as a pattern of its stem-like start: stemming may have matched "install" for "installing". */
function queryNeedles(query: SearchQuery): string[] {
  return query.terms.flatMap((term) => term.words).map((word) => (word.length > 5 ? word.slice(0, word.length - 3) : word).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}

/**
 * Whether a text holds every word of the query, each as the excerpt looks for it (its
 * stem-like start): for a text the index did not match itself, such as a section as one
 * reader may read it. It may refuse what the index's stemming would match, never the
 * other way round.
 */
export function queryMatcher(query: SearchQuery): (text: string) => boolean {
  const words = queryNeedles(query).map((needle) => new RegExp(`(?<![\\p{L}\\p{N}])${needle}`, 'u'));
  return (text) => {
    const lower = text.toLowerCase();
    return words.every((word) => word.test(lower));
  };
}

/**
 * Where in `text` the character at `lowerAt` of its lower-cased copy comes from: they
 * part where a character lower-cases to more than itself (İ to i̇), so in a text with
 * many, a match found on the copy lay further on in the text.
 */
function indexInText(text: string, lower: string, lowerAt: number): number {
  if (lowerAt === -1 || lower.length === text.length) return lowerAt;
  let lowered = 0;
  let index = 0;
  for (const character of text) {
    if (lowered >= lowerAt) break;
    lowered += character.toLowerCase().length;
    index += character.length;
  }
  return index;
}

/**
 * What search shows under a result: the text around the first place any query word
 * appears. Made once per query (one pattern for all its words) and applied to each hit.
 */
export function excerpter(query: SearchQuery, width = 160): (text: string) => string {
  const needles = queryNeedles(query);
  const firstWord = needles.length > 0 ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${needles.join('|')})`, 'u') : undefined;
  return (text) => {
    const lower = text.toLowerCase();
    const at = firstWord ? indexInText(text, lower, lower.search(firstWord)) : -1;
    const start = Math.max(0, (at === -1 ? 0 : at) - Math.floor(width / 4));
    const excerpt = text.slice(start, start + width).replace(/\s+/g, ' ').trim();
    return `${start > 0 ? '…' : ''}${excerpt}${start + width < text.length ? '…' : ''}`;
  };
}
