// What a document may point at: nothing in it may run script when it is rendered.

/**
 * Schemes a link may lead to when it is rendered for readers: none that runs script.
 * DOMPurify's default list of URI schemes, which documentation links use beyond the web
 * (a support line as `tel:`, a chat room as `matrix:`), but for `cid:`, which names a
 * part of an e-mail.
 */
export const SAFE_LINK_SCHEMES = ['http', 'https', 'mailto', 'tel', 'callto', 'sms', 'ftp', 'ftps', 'xmpp', 'matrix'] as const;
const safeSchemes = new Set<string>(SAFE_LINK_SCHEMES);

/**
 * True for a URL that is safe to render as a link: one of SAFE_LINK_SCHEMES, or a relative path
 * or anchor. Browsers drop ASCII whitespace and control characters inside a scheme
 * ("java\tscript:"), so they are dropped here before the scheme is read.
 */
export function isSafeLinkUrl(url: string): boolean {
  const scheme = schemeOf(url);
  return scheme === undefined || safeSchemes.has(scheme);
}

/** The URL's scheme in lower case, as a browser reads it, if it has one. */
function schemeOf(url: string): string | undefined {
  return /^([a-z][a-z0-9+.-]*):/i.exec(url.replace(/[\u0000-\u0020\u007f]/g, ''))?.[1].toLowerCase();
}

/** Schemes whose links run script, or show a page of the link's own making, when followed. */
const SCRIPT_SCHEMES = new Set(['javascript', 'vbscript', 'data']);

/**
 * True for a URL a document may keep: any but one whose scheme runs script. A scheme
 * neither safe nor known (`hhttps:`, a typo; an app's own) is kept as it was written, as
 * GitBook keeps it, and the reader, which links only SAFE_LINK_SCHEMES, shows its words.
 */
export function isStorableLinkUrl(url: string): boolean {
  const scheme = schemeOf(url);
  return scheme === undefined || !SCRIPT_SCHEMES.has(scheme);
}
