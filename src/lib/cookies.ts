// Reading cookies from a request's Cookie header.

/** A cookie's value, or undefined when absent or not percent-encoded as Quire writes it. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The session cookie that may link its person to a single sign-on identity: only when
 * the browser opened the sign-in from Quire itself or typed it in. A link on another
 * site (or in a mail) could otherwise send a signed-in person through an attacker's own
 * provider, binding whatever it answers to them. Browsers say where a navigation came
 * from in Sec-Fetch-Site; a same-site page (a sibling subdomain) counts as another site.
 */
export function linkingCookie(headers: { cookie?: string; 'sec-fetch-site'?: string | string[] }, name: string): string | undefined {
  const site = headers['sec-fetch-site'];
  if (site === 'cross-site' || site === 'same-site') return undefined;
  return readCookie(headers.cookie, name);
}
