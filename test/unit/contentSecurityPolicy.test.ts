import { describe, expect, it } from 'vitest';
import { policyHeader, widenedPolicy } from '../../src/lib/contentSecurityPolicy.ts';

const page = { 'default-src': ["'self'"], 'script-src': ["'self'"], 'frame-ancestors': ["'self'"] };

describe("an integration's sources widening a page's policy", () => {
  it('adds the sources to the directives named, each once, and a directive the page leaves to default-src starts from its sources', () => {
    const widened = widenedPolicy(page, ['script-src https://a.example https://b.example; connect-src https://a.example', 'script-src https://a.example']);
    expect(policyHeader(widened)).toBe("default-src 'self'; script-src 'self' https://a.example https://b.example; frame-ancestors 'self'; connect-src 'self' https://a.example");
  });

  it('never widens who may frame the page, where its forms go, its base URL or its sandbox', () => {
    const widened = widenedPolicy(page, ["frame-ancestors *; form-action https://evil.example; base-uri *; sandbox allow-scripts; default-src *; report-uri https://evil.example"]);
    expect(widened).toEqual(page);
  });

  it('leaves out what would end a directive or the policy, and the page policy given stays as it was', () => {
    const widened = widenedPolicy(page, ['SCRIPT-SRC https://a.example,https://b.example x\u00e9.example https://ok.example', "img-src 'none'"]);
    expect(widened['script-src']).toEqual(["'self'", 'https://ok.example']);
    expect(widened['img-src']).toEqual(["'self'"]);
    expect(page['script-src']).toEqual(["'self'"]);
  });
});
