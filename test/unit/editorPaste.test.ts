// What is pasted into the editor, as GitBook's blocks: markdown with GitBook's tags, and
// HTML as Google Docs, Notion, Word and web pages put it on the clipboard; hostile HTML
// and markdown leave nothing in the blocks that a reader would run.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { htmlToBlocks, isScriptUrl, looksLikeMarkdown, markdownToBlocks } from '../../src/content/paste.ts';
import { documentToNode } from '../../src/content/editor/toProseMirror.ts';
import type { JSONDocument } from '../../src/content/gitbook/model.ts';

type Blocks = JSONDocument['nodes'];

const types = (nodes: any[]): unknown[] => nodes.map((node) => (node.nodes?.some((child: any) => child.object === 'block') ? [node.type, types(node.nodes)] : node.type));

/** A node's words, leaves and inlines alike. */
const words = (node: any): string =>
  node.object === 'text' ? node.leaves.map((leaf: any) => leaf.text).join('') : (node.nodes ?? []).map(words).join(node.object === 'block' && node.nodes?.[0]?.object === 'block' ? '\n' : '');

/** Each leaf's words and marks, with the links' targets, flattened. */
const runs = (node: any): Array<{ text: string; marks?: string[]; link?: string }> =>
  (node.nodes ?? []).flatMap((child: any) =>
    child.object === 'text' ? child.leaves.map((leaf: any) => (leaf.marks.length ? { text: leaf.text, marks: leaf.marks.map((mark: any) => mark.type) } : { text: leaf.text }))
    : child.type === 'link' ? [{ text: words(child), link: child.data.ref.url }]
    : runs(child),
  );

/** The blocks stand in the editor's schema as its own nodes, none kept opaque. */
function fitsTheEditor(blocks: Blocks): void {
  const node = documentToNode({ object: 'document', data: {}, nodes: blocks } as JSONDocument);
  node.check();
  expect(JSON.stringify(node.toJSON())).not.toMatch(/"opaque(Block|Inline)"/);
}

describe('pasting markdown', () => {
  // GitBook's page title is its `#`: `##` is the page's first heading level, as Git Sync reads it.
  it('reads GitBook hints, tabs, code with a title and embeds as their blocks', () => {
    const blocks = markdownToBlocks(
      [
        '## Install',
        '',
        '{% hint style="warning" %}',
        'Back up **first**.',
        '{% endhint %}',
        '',
        '{% tabs %}',
        '{% tab title="npm" %}',
        '```bash',
        'npm install quire',
        '```',
        '{% endtab %}',
        '{% tab title="yarn" %}',
        'Run `yarn add quire`.',
        '{% endtab %}',
        '{% endtabs %}',
        '',
        '{% code title="config.json" %}',
        '```json',
        '{ "port": 8080 }',
        '```',
        '{% endcode %}',
        '',
        '{% embed url="https://www.youtube.com/watch?v=abc" %}',
        '',
        '1. one',
        '2. two',
      ].join('\n'),
    );
    expect(types(blocks)).toEqual(['heading-1', ['hint', ['paragraph']], ['tabs', [['tabs-item', [['code', ['code-line']]]], ['tabs-item', ['paragraph']]]], ['code', ['code-line']], 'embed', ['list-ordered', [['list-item', ['paragraph']], ['list-item', ['paragraph']]]]]);
    expect((blocks[1] as any).data).toEqual({ style: 'warning' });
    expect(runs((blocks[1] as any).nodes[0])).toEqual([{ text: 'Back up ' }, { text: 'first', marks: ['bold'] }, { text: '.' }]);
    expect((blocks[3] as any).data).toMatchObject({ title: 'config.json', syntax: 'json' });
    expect((blocks[4] as any).data.url).toBe('https://www.youtube.com/watch?v=abc');
    fitsTheEditor(blocks);
  });

  it('tells markdown from a line of words', () => {
    expect(looksLikeMarkdown('Just a sentence to paste, nothing more.')).toBe(false);
    expect(looksLikeMarkdown('Costs 5 * 3 = 15 dollars')).toBe(false);
    expect(looksLikeMarkdown('# Title')).toBe(true);
    expect(looksLikeMarkdown('- one\n- two')).toBe(true);
    expect(looksLikeMarkdown('1. first')).toBe(true);
    expect(looksLikeMarkdown('Some **bold** words')).toBe(true);
    expect(looksLikeMarkdown('See [the guide](https://example.com)')).toBe(true);
    expect(looksLikeMarkdown('{% hint style="info" %}\nHi\n{% endhint %}')).toBe(true);
    expect(looksLikeMarkdown('First paragraph.\n\nSecond paragraph.')).toBe(true);
    expect(looksLikeMarkdown('| a | b |\n|---|---|\n| 1 | 2 |')).toBe(true);
  });

  it('leaves out links, images and embeds whose URL would run script, keeping the links\' words', () => {
    const blocks = markdownToBlocks(
      [
        'Click [here](javascript:alert(1)) or [there](JaVaScRiPt:alert(2)) or [vb](vbscript:msgbox(3)).',
        '',
        '![x](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)',
        '',
        '{% embed url="javascript:alert(4)" %}',
        '',
        '<script>alert(5)</script>',
        '',
        '<img src="x" onerror="alert(6)">',
        '',
        '[fine](https://example.com/ok)',
      ].join('\n'),
    );
    const json = JSON.stringify(blocks);
    expect(json).not.toMatch(/javascript:|vbscript:|data:|onerror=/i);
    expect(runs(blocks[0])).toEqual([{ text: 'Click here or there or vb.' }]);
    expect(runs(blocks[blocks.length - 1])).toEqual([{ text: 'fine', link: 'https://example.com/ok' }]);
  });
});

// What Google Docs puts on the clipboard: the outer <b> that is not bold, styled spans, <p> in <li>.
const GOOGLE_DOCS = `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-5a0c5a1e-7fff-2d4c-8d1e-9b7c1f0f3a21"><h1 dir="ltr" style="line-height:1.38;margin-top:20pt;margin-bottom:6pt;"><span style="font-size:20pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:normal;font-variant:normal;text-decoration:none;vertical-align:baseline;white-space:pre;white-space:pre-wrap;">Release notes</span></h1><p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;"><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:700;font-style:normal;">Bold</span><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;font-style:normal;"> then </span><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;font-style:italic;">italic</span><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;"> and </span><a href="https://example.com/changelog" style="text-decoration:none;"><span style="font-size:11pt;font-family:Arial,sans-serif;color:#1155cc;font-weight:400;text-decoration:underline;-webkit-text-decoration-skip:none;text-decoration-skip-ink:none;">the changelog</span></a><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;">, with </span><span style="font-size:11pt;font-family:'Courier New',monospace;font-weight:400;">quire serve</span><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;">.</span></p><ul style="margin-top:0;margin-bottom:0;padding-inline-start:48px;"><li dir="ltr" style="list-style-type:disc;font-size:11pt;font-family:Arial,sans-serif;" aria-level="1"><p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;" role="presentation"><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;">Faster search</span></p></li><li dir="ltr" style="list-style-type:disc;font-size:11pt;font-family:Arial,sans-serif;" aria-level="1"><p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;" role="presentation"><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:700;">Dark</span><span style="font-size:11pt;font-family:Arial,sans-serif;font-weight:400;"> theme</span></p></li></ul><ol style="margin-top:0;margin-bottom:0;"><li dir="ltr" style="list-style-type:decimal;" aria-level="1"><p dir="ltr" role="presentation"><span style="font-weight:400;">Upgrade</span></p></li></ol></b><br class="Apple-interchange-newline">`;

// Notion: clean elements with ids and classes, a to-do list drawn with divs, code with its language.
const NOTION = `<meta charset="utf-8"><h2 id="9f1c" class="">Set up</h2><p id="1a2b" class="">Install the <strong>CLI</strong>, then read <a href="https://www.notion.so/acme/Guide-0f3e">the guide</a>.</p><ul id="3c4d" class="to-do-list"><li><div class="checkbox checkbox-on"></div> <span class="to-do-children-checked">Create an account</span></li></ul><ul id="3c4e" class="to-do-list"><li><div class="checkbox checkbox-off"></div> <span class="to-do-children-unchecked">Invite the team</span></li></ul><pre id="5e6f" class="code"><code class="language-JavaScript">const quire = require('quire');
quire.start();</code></pre><blockquote id="7a8b" class="">Keep it short.</blockquote><!-- notionvc: 3e6a0b9e-1f2d-4c5b-9a8e-7d6c5b4a3f21 -->`;

// Word: paragraphs as lists, <o:p>, conditional comments, mso styles.
const WORD = `<html xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:w="urn:schemas-microsoft-com:office:word"><head><meta name=Generator content="Microsoft Word 15"><style><!-- p.MsoNormal {margin:0cm; font-family:"Calibri",sans-serif;} --></style></head><body lang=EN-GB style='tab-interval:36.0pt'><!--StartFragment-->
<p class=MsoNormal><b><span lang=EN-US style='mso-ansi-language:EN-US'>Steps</span></b><span lang=EN-US> to follow<o:p></o:p></span></p>
<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span lang=EN-US style='mso-fareast-font-family:Calibri'><span style='mso-list:Ignore'>1.<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; </span></span></span><![endif]><span lang=EN-US>Open the <i>settings</i><o:p></o:p></span></p>
<p class=MsoListParagraphCxSpMiddle style='margin-left:72.0pt;mso-add-space:auto;text-indent:-18.0pt;mso-list:l0 level2 lfo1'><![if !supportLists]><span style='mso-list:Ignore'>a.<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span><![endif]><span lang=EN-US>Choose a team<o:p></o:p></span></p>
<p class=MsoListParagraphCxSpLast style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span style='mso-list:Ignore'>2.<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span><![endif]><span lang=EN-US>Save<o:p></o:p></span></p>
<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l1 level1 lfo2'><![if !supportLists]><span style='font-family:Symbol'><span style='mso-list:Ignore'>·<span style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp; </span></span></span><![endif]>A bullet<o:p></o:p></p>
<!--EndFragment--></body></html>`;

describe('pasting HTML', () => {
  it('reads Google Docs: its outer <b> is not bold, its spans\' weight and style are bold and italic, a monospace font is code, and lists are lists', () => {
    const blocks = htmlToBlocks(GOOGLE_DOCS);
    expect(types(blocks)).toEqual(['heading-1', 'paragraph', ['list-unordered', [['list-item', ['paragraph']], ['list-item', ['paragraph']]]], ['list-ordered', [['list-item', ['paragraph']]]]]);
    expect(runs(blocks[0])).toEqual([{ text: 'Release notes' }]);
    expect(runs(blocks[1])).toEqual([
      { text: 'Bold', marks: ['bold'] },
      { text: ' then ' },
      { text: 'italic', marks: ['italic'] },
      { text: ' and ' },
      { text: 'the changelog', link: 'https://example.com/changelog' },
      { text: ', with ' },
      { text: 'quire serve', marks: ['code'] },
      { text: '.' },
    ]);
    expect(runs((blocks[2] as any).nodes[1])).toEqual([{ text: 'Dark', marks: ['bold'] }, { text: ' theme' }]);
    fitsTheEditor(blocks);
  });

  it('reads Notion: headings, links, to-do lists with their boxes, code with its language, quotes', () => {
    const blocks = htmlToBlocks(NOTION);
    expect(types(blocks)).toEqual(['heading-1', 'paragraph', ['list-tasks', [['list-item', ['paragraph']]]], ['list-tasks', [['list-item', ['paragraph']]]], ['code', ['code-line', 'code-line']], ['blockquote', ['paragraph']]]);
    expect(runs(blocks[1])).toEqual([{ text: 'Install the ' }, { text: 'CLI', marks: ['bold'] }, { text: ', then read ' }, { text: 'the guide', link: 'https://www.notion.so/acme/Guide-0f3e' }, { text: '.' }]);
    expect((blocks[2] as any).nodes[0].data).toEqual({ checked: true });
    expect((blocks[3] as any).nodes[0].data).toEqual({ checked: false });
    expect(words((blocks[2] as any).nodes[0]).trim()).toBe('Create an account');
    expect((blocks[4] as any).data).toMatchObject({ syntax: 'JavaScript' });
    expect((blocks[4] as any).nodes.map(words)).toEqual(["const quire = require('quire');", 'quire.start();']);
    fitsTheEditor(blocks);
  });

  it('reads Word: its list paragraphs as nested numbered and bulleted lists, without their typed numbers, <o:p> or styles', () => {
    const blocks = htmlToBlocks(WORD);
    expect(types(blocks)).toEqual(['paragraph', ['list-ordered', [['list-item', ['paragraph', ['list-ordered', [['list-item', ['paragraph']]]]]], ['list-item', ['paragraph']]]], ['list-unordered', [['list-item', ['paragraph']]]]]);
    expect(runs(blocks[0])).toEqual([{ text: 'Steps', marks: ['bold'] }, { text: ' to follow' }]);
    expect(runs((blocks[1] as any).nodes[0].nodes[0])).toEqual([{ text: 'Open the ' }, { text: 'settings', marks: ['italic'] }]);
    expect(words((blocks[1] as any).nodes[0].nodes[1])).toBe('Choose a team');
    expect(words((blocks[2] as any).nodes[0])).toBe('A bullet');
    expect(JSON.stringify(blocks)).not.toMatch(/mso|Calibri|o:p|·/);
    fitsTheEditor(blocks);
  });

  it('reads a web page\'s tables, quotes, code and images, keeping http, mailto and relative links only', () => {
    const blocks = htmlToBlocks(
      `<h3>Limits</h3><table><thead><tr><th>Plan</th><th align="right">Pages</th></tr></thead><tbody><tr><td>Free</td><td align="right">100</td></tr></tbody></table>
       <blockquote><p>Quoted <s>words</s></p></blockquote><pre><code class="language-python">print("hi")</code></pre>
       <p><img src="https://example.com/logo.png" alt="Logo"> <a href="mailto:help@example.com">Mail</a> <a href="/docs/start">Start</a> <a href="ftp://example.com/x">FTP</a> <a href="tel:+123">Call</a></p>`,
    );
    expect(types(blocks)).toEqual(['heading-2', 'table', ['blockquote', ['paragraph']], ['code', ['code-line']], 'paragraph']);
    expect(runs((blocks[2] as any).nodes[0])).toEqual([{ text: 'Quoted ' }, { text: 'words', marks: ['strikethrough'] }]);
    const last = JSON.stringify(blocks[4]);
    expect(last).toContain('"url":"https://example.com/logo.png"');
    expect(runs(blocks[4]).filter((run) => run.link)).toEqual([
      { text: 'Mail', link: 'mailto:help@example.com' },
      { text: 'Start', link: '/docs/start' },
    ]);
    expect(words(blocks[4])).toContain('FTP');
    fitsTheEditor(blocks);
  });

  it('reads a toggle (Notion\'s, a page\'s <details>) as an expandable: its summary\'s words the title, the rest its body', () => {
    const blocks = htmlToBlocks('<details><summary>More <b>about</b> &lt;tags&gt;</summary><p>Hidden <strong>words</strong></p><ul><li>one</li></ul></details><p>After.</p>');
    expect(types(blocks)).toEqual(['expandable', 'paragraph']);
    const [title, body] = (blocks[0] as any).fragments;
    expect(title).toMatchObject({ fragment: 'expandable-title' });
    expect(words(title.nodes[0])).toBe('More about <tags>');
    expect(types(body.nodes)).toEqual(['paragraph', ['list-unordered', [['list-item', ['paragraph']]]]]);
    expect(runs(body.nodes[0])).toEqual([{ text: 'Hidden ' }, { text: 'words', marks: ['bold'] }]);
    fitsTheEditor(blocks);
  });

  it('reads a Google Docs table, its cells\' paragraphs and marks kept', () => {
    const blocks = htmlToBlocks(
      '<b style="font-weight:normal;" id="docs-internal-guid-7e1"><div dir="ltr"><table style="border:none;border-collapse:collapse;"><colgroup><col width="100"><col width="100"></colgroup><tbody><tr><td style="border-left:solid #000 1pt;"><p dir="ltr"><span style="font-weight:700;">Plan</span></p></td><td><p dir="ltr"><span>Pages</span></p></td></tr><tr><td><p dir="ltr"><span>Free</span></p></td><td><p dir="ltr"><span>100</span></p></td></tr></tbody></table></div></b>',
    );
    expect(types(blocks)).toEqual(['table']);
    const cells = Object.fromEntries((blocks[0] as any).fragments.map((fragment: any) => [fragment.fragment, runs(fragment.nodes[0])]));
    expect(cells).toEqual({ r0c0: [{ text: 'Plan', marks: ['bold'] }], r0c1: [{ text: 'Pages' }], r1c0: [{ text: 'Free' }], r1c1: [{ text: '100' }] });
    fitsTheEditor(blocks);
  });

  it('keeps GitBook\'s tags written in a page\'s text as words, not blocks', () => {
    const blocks = htmlToBlocks('<p>Write {% hint style="info" %} to open a hint.</p>');
    expect(types(blocks)).toEqual(['paragraph']);
    expect(words(blocks[0])).toBe('Write {% hint style="info" %} to open a hint.');
  });
});

/** What no pasted block may hold: script, its words, handlers, script URLs. */
const DANGER = /alert|<script|javascript|vbscript|data:|onerror|onload|onclick|onmouseover|expression\(|srcdoc/i;

const HOSTILE = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.test/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<img src="javascript:alert(1)">',
  '<a href="jAvAsCrIpT:alert(1)">click</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">encoded</a>',
  '<a href="&#x6A;avascript&colon;alert(1)">hex</a>',
  '<a href=" java\tscript:alert(1)">tabbed</a>',
  '<a href="vbscript:alert(1)">vb</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<svg onload=alert(1)><script>alert(1)</script><a xlink:href="javascript:alert(1)"><text>svg</text></a></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<iframe src="https://evil.test" srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">',
  '<style>body{background:url("javascript:alert(1)")}</style>',
  '<p style="background:expression(alert(1))" onclick="alert(1)">styled</p>',
  '<div onmouseover="alert(1)">hover</div>',
  '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">go</button></form>',
  '<details open ontoggle=alert(1)><summary>t</summary></details>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<template><script>alert(1)</script></template>',
  '<base href="javascript:alert(1)//">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<a href="https://ok.test" onclick="alert(1)">ok link</a>',
  '<!--<img src=x onerror=alert(1)>-->',
];

describe('pasting hostile HTML', () => {
  it.each(HOSTILE)('leaves nothing that runs in the blocks of %s', (html) => {
    const blocks = htmlToBlocks(html);
    expect(JSON.stringify(blocks)).not.toMatch(DANGER);
    fitsTheEditor(blocks);
  });

  it('keeps the words around what it removes', () => {
    const blocks = htmlToBlocks('<p>Before <a href="javascript:alert(1)">the link</a> <img src=x onerror=alert(1)> after.</p><script>alert(2)</script><p onclick="alert(3)">Second</p>');
    expect(blocks.map((block) => words(block).replace(/\s+/g, ' '))).toEqual(['Before the link after.', 'Second']);
    expect(JSON.stringify(blocks)).not.toMatch(DANGER);
  });

  it('leaves nothing that runs, whatever safe and hostile pieces are mixed and nested', () => {
    const safe = fc.constantFrom('<p>Plain words</p>', '<strong>bold</strong>', '<a href="https://example.com">a link</a>', '<ul><li>item</li></ul>', '<h2>Title</h2>', '<table><tr><td>cell</td></tr></table>', 'text');
    const wrapper = fc.constantFrom('p', 'div', 'li', 'blockquote', 'span', 'b', 'td', 'svg', 'a href="javascript:alert(1)"', 'span style="font-weight:700" onclick="alert(1)"');
    const piece: fc.Arbitrary<string> = fc.letrec<{ piece: string }>((tie) => ({
      piece: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.constantFrom(...HOSTILE),
        safe,
        fc.tuple(wrapper, fc.array(tie('piece'), { maxLength: 3 })).map(([tag, inner]) => `<${tag}>${inner.join('')}</${tag.split(' ')[0]}>`),
      ),
    })).piece;
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 5 }), (pieces) => {
        const blocks = htmlToBlocks(pieces.join(''));
        expect(JSON.stringify(blocks)).not.toMatch(DANGER);
        fitsTheEditor(blocks);
      }),
      { numRuns: 300 },
    );
  });

  it('reads a URL as a browser does when it asks whether it runs script', () => {
    for (const url of ['javascript:x', 'JAVASCRIPT:x', ' javascript:x', 'java\tscript:x', 'java\nscript:x', '\u0001javascript:x', 'vbscript:x', 'data:text/html,x', 'file:///etc/passwd']) expect(isScriptUrl(url)).toBe(true);
    for (const url of ['https://example.com', 'mailto:a@b.c', '/docs/javascript:x', '#javascript', 'javascript-guide.md']) expect(isScriptUrl(url)).toBe(false);
  });
});
