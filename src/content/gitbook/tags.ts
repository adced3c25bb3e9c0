// GitBook's block tags, `{% name attr="value" %}` … `{% endname %}`, as its markdown
// writes them. CommonMark knows nothing of them, so before parsing every tag outside
// code is put on a line of its own between blank lines, keeping the line's container
// prefix (quote markers, list indentation): each tag then parses as a paragraph of its
// own, which `tagOf` recognises and the converter groups with the blocks up to its
// closing tag.
import { htmlBlockNames, htmlRawNames } from 'micromark-util-html-tag-name';

export interface Tag {
  name: string;
  closing: boolean;
  /** Attributes by name: `title="x"` gives "x"; a bare word (`open`) gives "". */
  attrs: Record<string, string>;
  /** A quoted argument without a name, as in `{% include "path" %}`. */
  argument?: string;
  /** What follows the name when it is no list of attributes, as in `{% if visitor.claims.x %}`. */
  rest: string;
}

/** Tags that always close (`{% hint %}` … `{% endhint %}`), as opposed to those whose body is optional (`{% embed %}`). */
export const CONTAINER_TAGS = new Set(['hint', 'tabs', 'tab', 'stepper', 'step', 'columns', 'column', 'updates', 'update', 'code', 'prompt', 'if']);

const TAG = /\{%-?\s*([\s\S]*?)\s*-?%\}/g;
const WHOLE_TAG = /^\{%-?\s*([\s\S]*?)\s*-?%\}$/;
const ATTR = /([A-Za-z_][\w.:-]*)(?:\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([^\s"']+)))?|"((?:[^"\\]|\\.)*)"/g;

/** Reads one tag's inside (`hint style="info"`), or undefined when it is no tag. */
function readTag(inside: string): Tag | undefined {
  const head = /^(end)?(@?[A-Za-z][\w-]*(?:\/[\w-]+)?)([\s\S]*)$/.exec(inside.trim());
  if (!head) return undefined;
  const [, end, name, rest] = head;
  const attrs: Record<string, string> = {};
  let argument: string | undefined;
  for (const match of rest.matchAll(ATTR)) {
    if (match[5] !== undefined) argument ??= unescape(match[5]);
    else attrs[match[1]] = match[2] !== undefined ? unescape(match[2]) : (match[3] ?? match[4] ?? '');
  }
  return { name, closing: Boolean(end), attrs, argument, rest: rest.trim() };
}

function unescape(value: string): string {
  return value.replace(/\\(.)/g, '$1');
}

/** The tag a paragraph's source is, when it is exactly one tag. */
export function tagOf(source: string): Tag | undefined {
  const whole = WHOLE_TAG.exec(source.trim());
  return whole ? readTag(whole[1]) : undefined;
}

/** Writes a tag: `{% name a="1" b="2" %}`, attributes in the order given, empty ones left out. */
export function writeTag(name: string, attrs: Record<string, string | number | boolean | undefined> = {}, argument?: string): string {
  const parts = [name];
  if (argument !== undefined) parts.push(`"${argument.replace(/(["\\])/g, '\\$1')}"`);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === '') continue;
    parts.push(`${key}="${String(value).replace(/(["\\])/g, '\\$1')}"`);
  }
  return `{% ${parts.join(' ')} %}`;
}

/** Ranges of a line inside code spans, where `{% … %}` is text. */
function codeSpans(line: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const ticks = /`+/g;
  let open: RegExpExecArray | null;
  while ((open = ticks.exec(line))) {
    const closeAt = line.indexOf(open[0], open.index + open[0].length);
    // A run of backticks closes only on a run of the same length.
    let at = closeAt;
    while (at >= 0 && (line[at + open[0].length] === '`' || line[at - 1] === '`')) at = line.indexOf(open[0], at + open[0].length + 1);
    if (at < 0) continue;
    spans.push([open.index, at + open[0].length]);
    ticks.lastIndex = at + open[0].length;
  }
  return spans;
}

/**
 * Whether a line after a blank one opens a CommonMark HTML block (which runs to the
 * next blank line): a raw or block-level tag, a comment or declaration, or a line that
 * is one complete tag alone.
 */
function startsHtmlBlock(line: string): boolean {
  const name = /^<\/?([A-Za-z][A-Za-z0-9-]*)(?=[\s/>]|$)/.exec(line)?.[1]?.toLowerCase();
  if (/^<[!?]/.test(line)) return true;
  if (!name) return false;
  if (htmlRawNames.includes(name) || htmlBlockNames.includes(name)) return true;
  return /^<\/?[A-Za-z][A-Za-z0-9-]*(?:\s+[^\s=>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>\s*$/.test(line);
}

const FENCE = /^(`{3,}|~{3,})/;
const CONTAINER_PREFIX = /^([ \t]*(?:>[ \t]?)*)((?:[-*+]|\d{1,9}[.)])[ \t]+)?/;

/**
 * The line GitBook's empty paragraph reads from. GitBook writes one as nothing between
 * the blank lines that part blocks: three blank lines or more between two blocks hold
 * one for each further two, which CommonMark alone would read as no block at all; just
 * inside a container's tags, where it writes no blank line, two hold one. At
 * the end of a page it writes one as a blank line after the last block's (`</table>`,
 * a blank line, the end), where its editor keeps a paragraph after a table or code.
 */
export const EMPTY_PARAGRAPH_LINE = '<!-- gitbook:empty-paragraph -->';

/** Containers whose body is blocks, which may begin or end with an empty paragraph. */
const BODY_CONTAINERS = new Set(['hint', 'tab', 'step', 'column', 'update', 'if']);

/** CommonMark's raw HTML blocks, which run to their closing tag, blank lines and all. */
const RAW_HTML_OPENING = /^<(pre|script|style|textarea)(?=[\s>]|$)/i;

const BLANK_RUN_OF_THREE = /\n[ \t]*\n[ \t]*\n[ \t]*\n/;
const ENDS_WITH_BLANK_LINE = /\n\s*\n\s*$/;

/**
 * Puts every GitBook tag outside code on a line of its own, with blank lines around it,
 * and an EMPTY_PARAGRAPH_LINE for each empty paragraph GitBook wrote between blocks
 * outside code and containers. Code fences, code spans and HTML blocks are left as they are.
 */
export function isolateTags(markdown: string): string {
  if (!markdown.includes('{%') && !BLANK_RUN_OF_THREE.test(markdown) && !ENDS_WITH_BLANK_LINE.test(markdown)) return markdown;
  const out: string[] = [];
  let fence: { marker: string } | undefined;
  let inHtml = false;
  let previousBlank = true;
  /** Blank lines just passed, outside code: at the top level, a block after three or more follows empty paragraphs. */
  let blankRun = 0;
  let anyBlock = false;
  /** Whether the last line with anything on it opened a container of blocks, at the top level. */
  let afterBodyOpening = false;
  /** The end of the raw HTML block (`<pre>`, GitBook's form of code) the line is in, whose blank lines are its content. */
  let rawHtmlEnd: RegExp | undefined;
  for (const line of markdown.split('\n')) {
    const [prefixMatch, quote, marker = ''] = CONTAINER_PREFIX.exec(line)!;
    const content = line.slice(prefixMatch.length);
    const blank = content.trim() === '';
    const trimmed = content.trimStart();
    if (fence || rawHtmlEnd) blankRun = 0;
    else if (line.trim() === '') blankRun++;
    else {
      const topLevel = /^[^\s>]/.test(line);
      const tag = topLevel && line.startsWith('{%') ? tagOf(line) : undefined;
      // Inside a container's tags GitBook writes no blank line, so there two hold an empty paragraph.
      const atContainerEdge = afterBodyOpening || (tag?.closing === true && BODY_CONTAINERS.has(tag.name));
      const emptyParagraphs = !topLevel ? 0 : atContainerEdge ? Math.floor(blankRun / 2) : Math.floor((blankRun - 1) / 2);
      for (let made = 0; made < emptyParagraphs; made++) out.push(EMPTY_PARAGRAPH_LINE, '');
      blankRun = 0;
      anyBlock = true;
      afterBodyOpening = tag?.closing === false && BODY_CONTAINERS.has(tag.name);
    }
    if (rawHtmlEnd) {
      if (rawHtmlEnd.test(line)) rawHtmlEnd = undefined;
    } else if (!fence) {
      const raw = RAW_HTML_OPENING.exec(trimmed)?.[1];
      const end = raw ? new RegExp(`</${raw}>`, 'i') : undefined;
      if (end && !end.test(line)) rawHtmlEnd = end;
    }
    if (fence) {
      if (trimmed.startsWith(fence.marker[0].repeat(fence.marker.length)) && trimmed.replace(/[`~]/g, '').trim() === '') fence = undefined;
      out.push(line);
      previousBlank = false;
      continue;
    }
    const opening = FENCE.exec(trimmed);
    if (opening) {
      fence = { marker: opening[1] };
      out.push(line);
      previousBlank = false;
      continue;
    }
    // A line that is one tag ends an HTML block, as GitBook writes `<figure>…` then `{% endtab %}`.
    if (blank || (inHtml && tagOf(trimmed))) inHtml = false;
    else if (previousBlank && startsHtmlBlock(trimmed)) inHtml = true;
    previousBlank = blank;
    if (inHtml || !content.includes('{%')) {
      out.push(line);
      continue;
    }
    const spans = codeSpans(content);
    const pieces: string[] = [];
    let last = 0;
    for (const match of content.matchAll(TAG)) {
      const at = match.index!;
      if (spans.some(([start, end]) => at >= start && at < end) || !readTag(match[1])) continue;
      pieces.push(content.slice(last, at), match[0]);
      last = at + match[0].length;
    }
    pieces.push(content.slice(last));
    const lines = pieces.map((piece) => piece.trim()).filter(Boolean);
    if (lines.length === 0 || (pieces.length === 1 && !marker)) {
      out.push(line);
      continue;
    }
    // The first piece keeps the list marker; the others are indented under it.
    const continuation = quote + ' '.repeat(marker.length);
    lines.forEach((piece, index) => {
      if (index > 0 || !marker) out.push(continuation.trimEnd());
      out.push((index === 0 ? quote + marker : continuation) + piece);
    });
    out.push(continuation.trimEnd());
    previousBlank = true;
  }
  // The text's last piece, after its final newline, is counted as a blank line: `</table>\n\n` ends with two.
  if (anyBlock && !fence && !rawHtmlEnd) for (let made = 0; made < Math.floor(blankRun / 2); made++) out.push(EMPTY_PARAGRAPH_LINE, '');
  return out.join('\n');
}

/**
 * GitBook's own layout for written tags: no blank line just inside a container's
 * opening and closing tags (`{% hint %}` then its text on the next line), nor between
 * closing tags (`{% endtab %}` then `{% endtabs %}`). Reading isolates the tags again,
 * so both layouts read the same.
 */
export function compactTags(markdown: string): string {
  const lines = markdown.split('\n');
  const tags = lines.map((line) => tagOf(line.slice(CONTAINER_PREFIX.exec(line)![1].length)));
  // An opening tag with its end tag further on holds a body, laid out as GitBook lays
  // out its containers: an embed's caption, a spec block's link, a block Quire does not
  // know and keeps as text. A tag alone (an embed without a caption, `{% vars.name %}`)
  // keeps the blank line after it.
  const bodied = new Set<number>();
  const open = new Map<string, number>();
  tags.forEach((tag, index) => {
    if (!tag) return;
    if (tag.closing && open.has(tag.name)) bodied.add(open.get(tag.name)!);
    if (tag.closing) open.delete(tag.name);
    else open.set(tag.name, index);
  });
  const isTag = (index: number | undefined, closing: boolean) => {
    const tag = index === undefined ? undefined : tags[index];
    return tag !== undefined && tag.closing === closing && (closing || CONTAINER_TAGS.has(tag.name) || tag.name === 'file' || tag.name === 'content-ref' || tag.name === 'openapi' || bodied.has(index!));
  };
  const blank = (line: string | undefined) => line !== undefined && /^[ \t>]*$/.test(line);
  // The lines kept, by their index.
  const kept: number[] = [];
  let fence: string | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    const trimmed = line.slice(CONTAINER_PREFIX.exec(line)![1].length);
    if (fence) {
      if (trimmed.startsWith(fence) && trimmed.replace(/[`~]/g, '').trim() === '') fence = undefined;
      kept.push(index);
      continue;
    }
    const opening = FENCE.exec(trimmed);
    if (opening) fence = opening[1];
    // One blank line each side: the others are a container's empty paragraph at its start or end.
    const afterOpening = blank(line) && kept.at(-1) === index - 1 && isTag(index - 1, false) && !isTag(index + 1, true);
    const beforeClosing = blank(line) && isTag(index + 1, true) && !isTag(kept.at(-1), false);
    if (!afterOpening && !beforeClosing) kept.push(index);
  }
  return kept.map((index) => lines[index]).join('\n');
}
