// What a page's slug may be: one rule for the API's validation and the app's page
// settings, in a module of its own so that the browser imports nothing more.

/** What a page's slug may be, said for people (a refusal names it). */
export const PAGE_SLUG_RULE = 'letters, digits and . _ + -, at most 100, with a letter or digit, not ending in .md';

/**
 * Whether a page may have `slug`. GitBook keeps a file's name as its page's slug
 * (`disable_functions`, `Setup_Guide`, `performance.now-+-force-heavy-task`, `.pyc`), so
 * these characters stay; a slug ending in `.md` would read as the address of another
 * page's markdown (`<path>.md` on a site), and `.` or `..` alone as a step in a path.
 */
export function isPageSlug(slug: string): boolean {
  return slug.length <= 100 && /^[a-z0-9._+-]+$/i.test(slug) && /[a-z0-9]/i.test(slug) && !/\.md$/i.test(slug);
}
