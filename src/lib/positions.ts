// Where an item of a site's structure (a section, a group, a site space) goes among its
// siblings: fractional keys (fractional-indexing), so a move writes one row.
import { generateKeyBetween } from 'fractional-indexing';
import { BadRequest } from '../errors.ts';

export interface Positioned {
  id: string;
  position: string;
}

/**
 * A position key among `siblings` (in order, the moving item excluded): before or
 * after the named sibling, or at the end. A sibling not in the list is a 400.
 */
export function positionAmong(
  siblings: Positioned[],
  position: { before?: string; after?: string } | undefined,
  kind: string,
): string {
  const others = [...siblings].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0));
  const indexOf = (id: string, field: string) => {
    const index = others.findIndex((item) => item.id === id);
    if (index < 0) throw new BadRequest(`position.${field}: no ${kind} "${id}" among the siblings in this site`);
    return index;
  };
  if (position?.before !== undefined) {
    const index = indexOf(position.before, 'before');
    return generateKeyBetween(others[index - 1]?.position ?? null, others[index].position);
  }
  if (position?.after !== undefined) {
    const index = indexOf(position.after, 'after');
    return generateKeyBetween(others[index].position, others[index + 1]?.position ?? null);
  }
  return generateKeyBetween(others[others.length - 1]?.position ?? null, null);
}
