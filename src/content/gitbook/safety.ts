// What a document may point at: nothing in it may run script when it is rendered.

/** Schemes a link may lead to when it is rendered for readers: none that runs script. */
const SAFE_LINK_SCHEMES = new Set(['http', 'https', 'mailto']);

/**
 * True for a URL that is safe to render as a link: http(s), mailto, or a relative path
 * or anchor. Browsers drop ASCII whitespace and control characters inside a scheme
 * ("java\tscript:"), so they are dropped here before the scheme is read.
 */
export function isSafeLinkUrl(url: string): boolean {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url.replace(/[\u0000-\u0020\u007f]/g, ''));
  return scheme === null || SAFE_LINK_SCHEMES.has(scheme[1].toLowerCase());
}
