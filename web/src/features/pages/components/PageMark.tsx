// A page's emoji, or else its icon, before its title, as the reader shows them. Icons are
// GitBook's Font Awesome names; Quire serves Font Awesome Free's drawings
// (/app/icons/<name>.svg, src/lib/icons.ts), drawn here as a mask in the text's colour.
// A name Free has not (a Pro icon) draws nothing: its mask never loads.
import type { CSSProperties } from 'react';
import { glyphOf } from '../../../../../src/content/gitbook/emoji.ts';

export const iconUrl = (name: string) => `/app/icons/${encodeURIComponent(name)}.svg`;

/** A page's emoji as characters: the API answers GitBook's code points in hex ("1f389"), or characters it was given. */
export function pageGlyph(emoji: string | undefined): string {
  if (!emoji) return '';
  return /^[0-9a-f]{2,6}(-[0-9a-f]{2,6})*$/i.test(emoji) ? glyphOf(emoji) : emoji;
}

/** One icon, the size of the text around it. */
export function Icon({ name, size = '1em' }: { name: string; size?: string }) {
  const mask = `url("${iconUrl(name)}") center / contain no-repeat`;
  const style: CSSProperties = { display: 'inline-block', width: size, height: size, verticalAlign: '-0.125em', backgroundColor: 'currentColor', mask, WebkitMask: mask, flex: 'none' };
  return <span aria-hidden="true" data-icon={name} style={style} />;
}

export function PageMark({ page }: { page: { emoji?: string; icon?: string } }) {
  const glyph = pageGlyph(page.emoji);
  if (glyph) return <span aria-hidden="true">{glyph} </span>;
  if (!page.icon) return null;
  return (
    <>
      <Icon name={page.icon} />{' '}
    </>
  );
}
