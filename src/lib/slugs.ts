// URL path segments made from titles, as GitBook makes them, and kept unique among
// their siblings.

/**
 * A URL path segment from a title: lowercase letters, digits and hyphens, as GitBook
 * makes them (`&` is "and", an apostrophe goes: "Guides & FAQ" is `guides-and-faq`,
 * "GitBook’s editor" `gitbooks-editor`), so that groups and pages keep GitBook's paths.
 */
export function slugify(title: string, fallback: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/['\u2018\u2019\u02bc]/g, '')
    .replace(/&/g, ' and ')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90);
  return slug || fallback;
}

/** `wanted`, or `wanted-2`, `wanted-3`… whichever is not taken. */
export function uniquePath(wanted: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(wanted)) return wanted;
  for (let suffix = 2; ; suffix++) if (!used.has(`${wanted}-${suffix}`)) return `${wanted}-${suffix}`;
}
