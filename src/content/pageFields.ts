// A page's fields as a change sets them, and as a markdown document's front matter
// sets them (Git Sync's reading: YAML front matter, then a leading "# Heading" as the
// title), turned into the page's metadata.
import { checkedCondition } from '../lib/conditions.ts';
import { RepositoryFormatError, splitFrontMatter, splitTitle } from './gitbook/repository.ts';
import type { PageMeta } from './tree.ts';

/** A change that cannot apply, said as its answer says it (a 400 where the API answers). */
export class InvalidChange extends Error {}

export interface PageFields {
  title?: string;
  slug?: string;
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  /** Adaptive content: when readers of published content see the page; '' removes it. Stored as Git Sync's front matter names it, `if`. */
  condition?: string;
  /** GitBook's RevisionPageDocumentCover: an image of the change request's files or a URL; null removes it. */
  cover?: PageCover | null;
  /** GitBook's RevisionPageLayoutOptions given; those left out take GitBook's defaults. */
  layout?: Record<string, boolean | string>;
}

export interface PageCover {
  ref: { kind: 'file'; file: string } | { kind: 'url'; url: string };
  refDark?: { kind: 'file'; file: string } | { kind: 'url'; url: string };
  yPos?: number;
  height?: number;
}

export interface ReadDocument {
  /** Metadata from front matter (title, description, emoji, icon, hidden…). */
  front: PageFields;
  heading?: string;
  body: string;
}

const FRONT_FIELDS = ['title', 'description', 'emoji', 'icon', 'hidden', 'noIndex', 'noRobotsIndex'] as const;

/** A sent markdown document's front matter and body; front matter YAML cannot read is refused, saying where. */
function frontMatterOf(document: string | { markdown: string }, where: string) {
  try {
    return splitFrontMatter(typeof document === 'string' ? document : document.markdown, `${where}.document`);
  } catch (error) {
    if (error instanceof RepositoryFormatError) throw new InvalidChange(error.message);
    throw error;
  }
}

/**
 * Reads a markdown document as Git Sync does: YAML front matter sets metadata and a
 * leading "# Heading" becomes the title (when the front matter names none); what
 * becomes metadata leaves the stored body.
 */
export function readDocument(document: string | { markdown: string }, where: string): ReadDocument {
  const split = frontMatterOf(document, where);
  const front: PageFields = {};
  for (const field of FRONT_FIELDS) {
    const value = split.front[field];
    if (value === undefined) continue;
    const wanted = field === 'hidden' || field === 'noIndex' || field === 'noRobotsIndex' ? 'boolean' : 'string';
    if (typeof value !== wanted) throw new InvalidChange(`${where}.document: front matter "${field}" must be a ${wanted}`);
    (front as Record<string, unknown>)[field] = value;
  }
  // GitBook's front matter names a page's condition `if`.
  if (split.front.if !== undefined) {
    if (typeof split.front.if !== 'string') throw new InvalidChange(`${where}.document: front matter "if" must be a string`);
    front.condition = split.front.if;
  }
  // A leading heading is the title, unless the front matter named one: then it is content.
  if (front.title !== undefined) return { front, body: split.body };
  const { title, body } = splitTitle(split.body);
  return title !== undefined ? { front, heading: title, body } : { front, body };
}

/**
 * A reusable content's markdown as sent: its front matter may name its title (as its file
 * in .gitbook/includes does); a leading heading is content, as it is there.
 */
export function readIncludeDocument(document: string | { markdown: string }, where: string): { title?: string; body: string } {
  const split = frontMatterOf(document, where);
  const { title } = split.front;
  if (title !== undefined && typeof title !== 'string') throw new InvalidChange(`${where}.document: front matter "title" must be a string`);
  return title !== undefined ? { title, body: split.body } : { body: split.body };
}

/** Where a document's own condition is named, for its error. */
export const FRONT_CONDITION = (where: string) => `${where}.document: front matter "if"`;

/** The page metadata fields set; `conditionField` names where the condition came from, for its error. */
export function metaFields(fields: PageFields, conditionField: string): Partial<PageMeta> {
  const meta: Partial<PageMeta> = {};
  for (const key of ['title', 'slug', 'emoji', 'icon', 'description', 'hidden', 'noIndex', 'noRobotsIndex'] as const) {
    if (fields[key] !== undefined) meta[key] = fields[key] as never;
  }
  if (fields.cover !== undefined) meta.cover = fields.cover ?? undefined;
  if (fields.layout !== undefined) meta.layout = fields.layout;
  if (fields.condition !== undefined) meta.if = fields.condition === '' ? undefined : checkedCondition(conditionField, fields.condition);
  return meta;
}
