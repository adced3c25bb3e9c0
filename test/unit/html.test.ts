import { describe, expect, it } from 'vitest';
import { pageMarkdown, parsePage } from '../../src/content/html.ts';

describe('web pages as markdown', () => {
  it('keeps the main content, drops site chrome, and finds every link on the page', () => {
    const page = parsePage(
      '<html><head><title>T</title></head><body><header><a href="/a">A</a></header><main><h1>Title</h1><p>Text <a href="b#x">b</a></p><script>x()</script><aside>side</aside></main><footer><a href="/c">C</a></footer></body></html>',
      'https://site.test/docs/',
    );
    expect(page.title).toBe('Title');
    expect(page.links).toEqual(['https://site.test/a', 'https://site.test/docs/b', 'https://site.test/c']);
    expect(pageMarkdown(page, 'https://site.test/docs/', (url) => url.replace('https://site.test', ''))).toBe('# Title\n\nText [b](/docs/b#x)');
  });

  it('falls back to the document title and the body when there is no main element or heading', () => {
    const page = parsePage('<html><head><title> Plain  page </title></head><body><p>Just <img src="i.png" alt="i"></p></body></html>', 'https://site.test/');
    expect(page.title).toBe('Plain page');
    expect(page.images).toEqual(['https://site.test/i.png']);
    expect(pageMarkdown(page, 'https://site.test/', (url, kind) => (kind === 'image' ? '/files/img0' : url))).toBe('Just ![i](/files/img0)');
  });
});
