import { readFileSync } from 'node:fs';
import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import { markdownToDocument } from '../../src/content/gitbook/fromMarkdown.ts';
import { withConditionsDecided, withIncludedBlocks } from '../../src/content/document.ts';
import type { ContentRef } from '../../src/content/gitbook/model.ts';
import { loadRenderers, outlineOf, renderDocument, type RenderContext } from '../../src/reader/render.ts';
import { READER_STYLESHEET } from '../../src/reader/layout.ts';
import { contrastRatio } from '../../src/reader/theme.ts';

const resolve = (url: string): ContentRef =>
  url.startsWith('/files/') ? { kind: 'file', file: url.slice(7) } : url.startsWith('/pages/') ? { kind: 'page', page: url.slice(7) } : { kind: 'url', url };

const context: RenderContext = {
  href: (ref) => (ref.kind === 'url' ? ref.url : ref.kind === 'page' ? `/docs/${ref.page}` : ref.kind === 'file' ? `/files/${ref.file}` : ref.kind === 'anchor' ? `#${ref.anchor}` : undefined),
  pageTitle: (pageId) => (pageId === 'p1' ? 'The guide' : undefined),
  search: (query) => `/search?q=${encodeURIComponent(query)}`,
};

/** The reusable contents pages include: rc1 includes itself, which shows once. */
const reusables: Record<string, string> = { rc1: 'Shared **words**.\n\n{% include "/reusable-content/rc1" %}' };

/** The page's markdown rendered with what it includes in place and its conditions decided for a reader with the `pro` claim, as a DOM to query. */
function render(markdown: string) {
  const included = (id: string) => (reusables[id] === undefined ? undefined : markdownToDocument(reusables[id], resolve).nodes);
  const decided = withConditionsDecided(withIncludedBlocks(markdownToDocument(markdown, resolve), included), (expression) => expression === 'visitor.claims.pro');
  const html = renderDocument(decided, context);
  return { html, document: parseHTML(`<!doctype html><html><body>${html}</body></html>`).document };
}

const fixture = (name: string) => readFileSync(new URL(`../fixtures/gitbook/${name}`, import.meta.url), 'utf8');

describe('rendering documents for readers', () => {
  beforeAll(loadRenderers);

  it('renders headings from <h2> with their anchors, and lists, tasks, quotes and hints', () => {
    const { document } = render('## Title\n\n### Steps <a href="#go" id="go"></a>\n\n3. three\n\n- [x] done\n\n> quoted\n\n{% hint style="danger" %}\nStop.\n{% endhint %}');
    expect(document.querySelector('h2#title')!.textContent).toBe('Title#');
    expect(document.querySelector('h3#go a.anchor')!.getAttribute('href')).toBe('#go');
    expect(document.querySelector('ol')!.getAttribute('start')).toBe('3');
    expect(document.querySelector('ul.tasks input')!.hasAttribute('checked')).toBe(true);
    expect(document.querySelector('blockquote')!.textContent).toBe('quoted');
    expect(document.querySelector('aside.hint.hint-danger')!.getAttribute('role')).toBe('note');
  });

  it("aligns paragraphs and headings as written, leads a button that opens the search or the assistant to the site's search, and shows a page's mention as its title", () => {
    const { document } = render(
      '<h3 align="center">Centred</h3>\n\n<p align="right">Right</p>\n\n<button type="button" class="button primary" data-action="search" data-query="install guide">Find</button> ' +
        '<button type="button" class="button primary" data-action="ask">Ask</button> <button type="button" class="button secondary" data-action="select" data-slug="x">Pick</button>',
    );
    expect(document.querySelector('h2')!.getAttribute('style')).toBe('text-align:center');
    expect(document.querySelector('p')!.getAttribute('style')).toBe('text-align:end');
    expect([...document.querySelectorAll('a.button')].map((button) => [button.textContent, button.getAttribute('href')])).toEqual([
      ['Find', '/search?q=install%20guide'],
      ['Ask', '/search?q='],
    ]);
    expect(document.querySelector('span.button')!.textContent).toBe('Pick');
    const mentioned = render('Read [p1](/pages/p1 "mention") first.').document.querySelector('a.mention')!;
    expect([mentioned.textContent, mentioned.getAttribute('href')]).toEqual(['The guide', '/docs/p1']);
    // A page the site does not publish (another space's, say) leads nowhere: nothing of it shows, not even its title.
    const elsewhere = renderDocument(markdownToDocument('Read [p1](/pages/p1 "mention") first.', resolve), { ...context, href: () => undefined });
    expect(elsewhere).not.toContain('The guide');
    expect(elsewhere).not.toContain('mention');
  });

  it('highlights code on the server, with its title, and keeps mermaid as its source', () => {
    const { document } = render('{% code title="app.js" %}\n```js\nconst answer = 42;\n```\n{% endcode %}\n\n```mermaid\ngraph TD\n  A --> B\n```');
    expect(document.querySelector('figure.code figcaption')!.textContent).toBe('app.js');
    expect(document.querySelector('code.language-js .hljs-keyword')!.textContent).toBe('const');
    expect(document.querySelector('pre.mermaid')!.textContent).toBe('graph TD\n  A --> B');
  });

  it('marks the lines a code block highlights, numbers its lines when asked, and keeps its text as written for copying', () => {
    const { document } = render('<pre class="language-js" data-line-numbers><code class="lang-js">/* one\n<strong>   two */ const x = 1;\n</strong>three();\n</code></pre>');
    const lines = [...document.querySelectorAll('figure.code.line-numbers code .line')];
    expect(lines.map((line) => [line.textContent, line.classList.contains('highlighted')])).toEqual([
      ['/* one', false], ['   two */ const x = 1;', true], ['three();', false],
    ]);
    // The comment spans two lines: each line holds its own part of it, still highlighted as a comment.
    expect(lines[1].querySelector('.hljs-comment')!.textContent).toBe('   two */');
    expect(document.querySelector('figure.code code')!.textContent).toBe('/* one\n   two */ const x = 1;\nthree();');
    expect(READER_STYLESHEET).toContain('.line-numbers .line::before');
  });

  it("shows a select column's chosen options by their labels", () => {
    const { document } = render(
      '<table><thead><tr><th>Plan</th><th>Price<select multiple><option value="o1" label="Free" color="blue"></option><option value="o2" label="One user" color="blue"></option></select></th></tr></thead>' +
        '<tbody><tr><td>Starter</td><td><span data-option="o1">Free, </span><span data-option="o2">One user</span></td></tr></tbody></table>',
    );
    expect([...document.querySelectorAll('tbody td')].map((cell) => cell.textContent)).toEqual(['Starter', 'Free, One user']);
  });

  it('shows the captions of embeds, drawings and files under them, and a file by its caption', () => {
    const { document } = render(
      '{% embed url="https://www.loom.com/share/1" %}\nA video **guide**\n{% endembed %}\n\n<img src="/files/d.svg" alt="The flow" class="gitbook-drawing">\n\n' +
        '{% file src="/files/dpa.pdf" %}\nThe [DPA](https://x.test) signed\n{% endfile %}\n\n{% file src="/files/plain.pdf" %}\n{% endfile %}',
    );
    expect(document.querySelector('figure.embed figcaption strong')!.textContent).toBe('guide');
    expect(document.querySelector('figure.drawing figcaption')!.textContent).toBe('The flow');
    expect([...document.querySelectorAll('p.file a')].map((link) => [link.getAttribute('href'), link.textContent])).toEqual([
      ['/files/dpa.pdf', 'The DPA signed'],
      ['/files/plain.pdf', 'Download the file'],
    ]);
  });

  it('typesets maths as MathML with its TeX kept, shows a formula it cannot read as its source, and follows no link inside one', () => {
    const { document, html } = render('$$\n\\frac{a}{b} + \\sqrt{x^2}\n$$\n\nEnergy is $$E = mc^2$$ here.\n\n$$\n\\frac{a\n$$\n\n$$\n\\href{javascript:alert(1)}{click} <script>\n$$');
    const [block, inline] = [...document.querySelectorAll('.math math')];
    expect(block.getAttribute('display')).toBe('block');
    expect(block.querySelector('mfrac')).not.toBeNull();
    expect(block.querySelector('annotation')!.textContent).toBe('\\frac{a}{b} + \\sqrt{x^2}');
    expect(inline.closest('p')!.textContent).toContain('Energy is');
    expect(inline.getAttribute('display')).toBeNull();
    expect(document.querySelector('.katex-error')!.textContent).toBe('\\frac{a');
    expect(document.querySelector('.math [href], .math a, script')).toBeNull();
    expect(html).not.toContain('<script>');
  });

  it('renders tabs as sections, expandables as details, steppers, columns, updates and tables', () => {
    const { document } = render([fixture('getting-started.md'), fixture('configuration.md'), fixture('reference.md')].join('\n\n'));
    expect([...document.querySelectorAll('.tabs .tab-title')].map((title) => title.textContent)).toEqual(['macOS', 'Windows', 'Linux']);
    expect(document.querySelector('details.expandable summary')!.textContent).toBe('Where is the file on Windows?');
    expect(document.querySelectorAll('details.expandable[open]')).toHaveLength(1);
    expect(document.querySelectorAll('ol.stepper > li.step')).toHaveLength(2);
    expect(document.querySelectorAll('.columns > .column')).toHaveLength(2);
    expect([...document.querySelectorAll('.update time')].map((time) => time.getAttribute('datetime'))).toEqual(['2026-11-01', '2026-10-01']);
    expect([...document.querySelectorAll('.table th')].map((th) => th.textContent)).toEqual(['Setting', 'Default', 'Meaning']);
    expect(document.querySelectorAll('.cards .card')).toHaveLength(2);
    expect(document.querySelector('figure.image img')!.getAttribute('alt')).toBe('The login screen');
    expect(document.querySelector('figure.image figcaption')!.textContent).toBe('The login screen, with the token field');
    expect(document.querySelector('section.notes li')!.textContent).toContain('On Windows the file lives elsewhere');
    expect(document.querySelector('a.button.primary')!.getAttribute('href')).toBe('https://acme.test/signup');
  });

  it('draws merged cells across the columns and rows they span, without the cells they cover', () => {
    const { document } = render('<table><thead><tr><th>Plan</th><th>Seats</th><th>Price</th></tr></thead><tbody><tr><td colspan="2">Wide</td><td>10</td></tr><tr><td rowspan="2">Tall</td><td>5</td><td>20</td></tr><tr><td>9</td><td>30</td></tr></tbody></table>');
    const rows = [...document.querySelectorAll('.table tbody tr')].map((row) => [...row.querySelectorAll('td')].map((cell) => [cell.textContent, cell.getAttribute('colspan'), cell.getAttribute('rowspan')]));
    expect(rows).toEqual([
      [['Wide', '2', null], ['10', null, null]],
      [['Tall', null, '2'], ['5', null, null], ['20', null, null]],
      [['9', null, null], ['30', null, null]],
    ]);
  });

  it('shows adaptive content only when its condition holds, and reusable content in place', () => {
    const { document } = render('{% if visitor.claims.pro %}\nFor pros.\n{% endif %}\n\n{% if visitor.claims.free %}\nFor free users.\n{% endif %}\n\n{% include "/reusable-content/rc1" %}');
    expect(document.body.textContent).toContain('For pros.');
    expect(document.body.textContent).not.toContain('For free users.');
    expect(document.querySelectorAll('strong').length).toBe(1);
    expect(document.querySelector('strong')!.textContent).toBe('words');
  });

  it('links content references by page title, and leaves out links that lead nowhere safe', () => {
    const { document } = render('{% content-ref url="/pages/p1" %}\n[x](/pages/p1)\n{% endcontent-ref %}\n\n[bad](javascript:alert(1)) <a href="javascript:alert(1)" class="button primary">B</a>');
    expect(document.querySelector('.content-ref a')!.textContent).toBe('The guide');
    expect([...document.querySelectorAll('a')].map((link) => link.getAttribute('href'))).toEqual(['/docs/p1']);
  });

  it('links only schemes that run no script: a link of a scheme it does not know shows its words, one to script that a stored document holds is never a link', () => {
    const { document } = render('Merge a [change request](hhttps://gitbook.com/docs) now.');
    expect(document.querySelector('a')).toBeNull();
    expect(document.body.textContent).toContain('Merge a change request now.');
    const link = (url: string) => ({ object: 'inline', type: 'link', data: { ref: { kind: 'url', url } }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: url.slice(0, 4), marks: [] }] }] });
    const stored = { nodes: [{ object: 'block', type: 'paragraph', nodes: ['javascript:alert(1)', 'vbscript:x', 'data:text/html,x', 'java\tscript:x'].map(link) }] };
    const html = renderDocument(stored as never, context);
    expect(html).not.toContain('<a');
    expect(html).toContain('java');
  });

  it('escapes what a document says: HTML in text stays text', () => {
    const { document, html } = render('<script>alert(1)</script>\n\nA <b onclick="x()">bold</b> claim & <i>more</i>');
    expect(document.querySelector('script')).toBeNull();
    expect(html).not.toContain('onclick');
    expect(document.body.textContent).toContain('<script>alert(1)</script>');
  });

  it('answers the outline of a page from its headings', () => {
    expect(outlineOf(markdownToDocument('## One\n\ntext\n\n### Two', resolve))).toEqual([
      { id: 'one', title: 'One', level: 1 },
      { id: 'two', title: 'Two', level: 2 },
    ]);
  });
});

describe('the stylesheet\'s colours', () => {
  /** The stylesheet split by theme: the rules inside `@media (prefers-color-scheme:dark){…}` and the rest. */
  function themes(css: string): { light: string; dark: string } {
    let light = '';
    let dark = '';
    let at = 0;
    const opener = '@media (prefers-color-scheme:dark){';
    for (let start = css.indexOf(opener); start !== -1; start = css.indexOf(opener, at)) {
      light += css.slice(at, start);
      let depth = 1;
      let end = start + opener.length;
      for (; depth > 0; end++) depth += css[end] === '{' ? 1 : css[end] === '}' ? -1 : 0;
      dark += css.slice(start + opener.length, end - 1);
      at = end;
    }
    return { light: light + css.slice(at), dark };
  }
  const variable = (css: string, name: string) => new RegExp(`--${name}:(#[0-9a-f]{3,6})`, 'i').exec(css)![1];
  const { light, dark } = themes(READER_STYLESHEET);

  it('give every text colour of each theme WCAG AA contrast on the page and on panels (code, tabs)', () => {
    for (const [name, css] of [['light', light], ['dark', dark]] as const) {
      const backgrounds = [variable(css, 'bg'), variable(css, 'panel')];
      const colours = [...css.matchAll(/(?<![-\w])color:(#[0-9a-f]{3,6})/gi)].map((match) => match[1]);
      colours.push(variable(css, 'fg'), variable(css, 'muted'), variable(css, 'accent'));
      expect(colours.length, name).toBeGreaterThan(5);
      for (const colour of colours) for (const background of backgrounds) expect(contrastRatio(colour, background), `${name}: ${colour} on ${background}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('keep the text readable on every coloured background and hint', () => {
    const fg = variable(light, 'fg');
    const backgrounds = [...light.matchAll(/\.background-[a-z]+[^{]*\{background:(#[0-9a-f]{3,6})/gi)].map((match) => match[1]);
    backgrounds.push(variable(light, 'hint'));
    for (const background of backgrounds) expect(contrastRatio(fg, background), background).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(variable(dark, 'fg'), variable(dark, 'hint'))).toBeGreaterThanOrEqual(4.5);
  });
});
