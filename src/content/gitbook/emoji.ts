// GitBook's emoji inline in markdown: its name between colons (`:tada:`,
// `:white\_check\_mark:`), as GitBook's documentation ("Emojis", "Representation in
// Markdown") gives it and as its Git Sync writes one; in HTML, its `<span
// data-gb-custom-inline data-tag="emoji">` form. An emoji character in text is text:
// GitBook writes the one it holds as text as the character (`### ✨ New`, and in a
// `<summary>` without the span), and the inline by its name beside it.
import { emojiToName, nameToEmoji } from 'gemoji';

/**
 * A name between colons, not inside a word or a number (`10:30:45`); after a colon only
 * where that colon ends the emoji before it (`:keyboard::mouse:`).
 */
const SHORTCODE = /(?<![\p{L}\p{N}]):([a-z0-9_+-]+):(?![\p{L}\p{N}])/gu;

/** An emoji's code as the document holds it: its code points in hex, joined by dashes. */
export function codeOf(glyph: string): string {
  return [...glyph].map((char) => char.codePointAt(0)!.toString(16)).join('-');
}

/** The code without the variation selector and joiner, which GitBook's codes leave out (`1f469-2696`) and Quire's keep. */
function bareCode(code: string): string {
  return code.split('-').filter((point) => point !== 'fe0f' && point !== '200d').join('-');
}

let namesByBareCode: Map<string, string> | undefined;

/** An emoji's name as its inline is written in markdown (gemoji's first name for it), or undefined if it has none. */
export function emojiName(code: string): string | undefined {
  namesByBareCode ??= new Map(Object.entries(emojiToName).map(([glyph, name]) => [bareCode(codeOf(glyph)), name]));
  return namesByBareCode.get(bareCode(code));
}

/** Text split into its pieces of text and the codes of the emoji written by a known name in it, in order. */
export function textAndEmoji(value: string): Array<{ text: string } | { code: string }> {
  if (!value.includes(':')) return [{ text: value }];
  const pieces: Array<{ text: string } | { code: string }> = [];
  let last = 0;
  for (const match of value.matchAll(SHORTCODE)) {
    if (!Object.hasOwn(nameToEmoji, match[1]) || (value[match.index! - 1] === ':' && match.index !== last)) continue;
    if (match.index! > last) pieces.push({ text: value.slice(last, match.index) });
    pieces.push({ code: codeOf(nameToEmoji[match[1]]) });
    last = match.index! + match[0].length;
  }
  if (last < value.length) pieces.push({ text: value.slice(last) });
  return pieces;
}

/** An emoji's characters from its code; none for a code that names no character (a client's document may hold anything). */
export function glyphOf(code: string): string {
  const points = code.split('-').map((hex) => (/^[0-9a-f]{1,6}$/i.test(hex) ? Number.parseInt(hex, 16) : Number.NaN));
  return points.every((point) => point <= 0x10ffff) ? String.fromCodePoint(...points) : '';
}

/** Whether a name written between `before` and `after` reads back as the emoji: not touching a letter, a number or a colon. */
export function nameReadsAlone(before: string, after: string): boolean {
  return !/[\p{L}\p{N}:]$/u.test(before) && !/^[\p{L}\p{N}]/u.test(after);
}
