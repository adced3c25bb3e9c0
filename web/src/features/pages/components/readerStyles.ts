// The published site's stylesheet (src/reader/layout.ts), scoped to the app's rendered
// pages: each rule applies inside `.quire-reader` only, and its dark rules follow the
// app's colour scheme (Mantine's data-mantine-color-scheme) rather than the system's.
import { READER_STYLESHEET } from '../../../../../src/reader/layout.ts';

export const READER_CLASS = 'quire-reader';
const SCOPE = `.${READER_CLASS}`;
const DARK = '[data-mantine-color-scheme="dark"]';

/** A selector list split at its top-level commas. */
function selectors(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < list.length; index++) {
    const character = list[index];
    if (character === '(') depth++;
    else if (character === ')') depth--;
    else if (character === ',' && depth === 0) {
      parts.push(list.slice(start, index).trim());
      start = index + 1;
    }
  }
  parts.push(list.slice(start).trim());
  return parts;
}

/** One selector under the scope: the site's page-wide elements (:root, body, main) become the scope itself. */
function scoped(selector: string, dark: boolean): string {
  const inner = selector.replace(/^(?::root|body|main)(?=$|[\s.:[>])/, SCOPE);
  const within = inner.startsWith(SCOPE) ? inner : `${SCOPE} ${inner}`;
  return dark ? `${DARK} ${within}` : within;
}

function rulesOf(rules: CSSRuleList, dark: boolean): string[] {
  const out: string[] = [];
  for (const rule of Array.from(rules)) {
    if (rule instanceof CSSStyleRule) {
      out.push(`${selectors(rule.selectorText).map((selector) => scoped(selector, dark)).join(',')}{${rule.style.cssText}}`);
    } else if (rule instanceof CSSMediaRule) {
      if (/prefers-color-scheme:\s*dark/.test(rule.conditionText)) out.push(...rulesOf(rule.cssRules, true));
      else out.push(`@media ${rule.conditionText}{${rulesOf(rule.cssRules, dark).join('')}}`);
    }
  }
  return out;
}

let scopedSheet: string | undefined;

/** The reader's stylesheet for the app, made once (the browser parses it). */
export function readerStylesheet(): string {
  if (scopedSheet === undefined) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(READER_STYLESHEET);
    // The reader's pages are one column of their own; the app sizes its own.
    scopedSheet = `${rulesOf(sheet.cssRules, false).join('\n')}\n${SCOPE}{background:transparent}`;
  }
  return scopedSheet;
}
