// A page's emoji, or else its icon, before its title, as the reader shows them. Icons are
// GitBook's Font Awesome names; Quire serves Font Awesome Free's drawings
// (/app/icons/<name>.svg, src/lib/icons.ts), drawn here as a mask in the text's colour.
// A name Free has not (a Pro icon) draws nothing: its mask never loads.
import type { CSSProperties } from 'react';

export const iconUrl = (name: string) => `/app/icons/${encodeURIComponent(name)}.svg`;

/** One icon, the size of the text around it. */
export function Icon({ name, size = '1em' }: { name: string; size?: string }) {
  const mask = `url("${iconUrl(name)}") center / contain no-repeat`;
  const style: CSSProperties = { display: 'inline-block', width: size, height: size, verticalAlign: '-0.125em', backgroundColor: 'currentColor', mask, WebkitMask: mask, flex: 'none' };
  return <span aria-hidden="true" data-icon={name} style={style} />;
}

export function PageMark({ page }: { page: { emoji?: string; icon?: string } }) {
  if (page.emoji) return <span aria-hidden="true">{page.emoji} </span>;
  if (!page.icon) return null;
  return (
    <>
      <Icon name={page.icon} />{' '}
    </>
  );
}
