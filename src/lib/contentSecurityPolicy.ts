// Content-Security-Policy headers built from directives, and widened by what the
// integrations whose scripts a page loads declare they need (GitBook's
// `contentSecurityPolicy` of an integration, as "directive sources; …").

/** A policy: each directive with its sources. */
export type Policy = Record<string, string[]>;

/**
 * What an integration may widen: where the page loads scripts, styles, images, fonts,
 * frames and media from, and where it connects. Never who may frame the page, where its
 * forms go, its base URL or its sandbox.
 */
const WIDENED = new Set(['script-src', 'script-src-elem', 'style-src', 'style-src-elem', 'img-src', 'font-src', 'connect-src', 'frame-src', 'child-src', 'worker-src', 'media-src', 'manifest-src']);

/** A source is one token of printable characters; `;` and `,` would end the directive or the policy. */
const SOURCE = /^[\x21-\x2b\x2d-\x3a\x3c-\x7e]+$/;

/** `policy` with the sources each of `extensions` adds to the directives an integration may widen; a directive the policy leaves to default-src starts from default-src's sources. */
export function widenedPolicy(policy: Policy, extensions: string[]): Policy {
  const widened: Policy = Object.fromEntries(Object.entries(policy).map(([directive, sources]) => [directive, [...sources]]));
  for (const extension of extensions) {
    for (const part of extension.split(';')) {
      const [directive, ...sources] = part.trim().split(/\s+/);
      const name = directive?.toLowerCase();
      if (!name || !WIDENED.has(name)) continue;
      const current = (widened[name] ??= [...(policy['default-src'] ?? [])]);
      for (const source of sources) if (SOURCE.test(source) && !current.includes(source) && source !== "'none'") current.push(source);
    }
  }
  return widened;
}

/** The policy as a header's value. */
export function policyHeader(policy: Policy): string {
  return Object.entries(policy)
    .map(([directive, sources]) => [directive, ...sources].join(' '))
    .join('; ');
}
