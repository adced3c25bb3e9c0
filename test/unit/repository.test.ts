// GitBook's repository format, read and written without a database or git: the
// configuration, SUMMARY.md both ways, the folder layout, front matter and titles.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toString } from 'mdast-util-to-string';
import { parseGitBookMarkdown } from '../../src/content/gitbook/fromMarkdown.ts';
import { computedPagesBlocksOf, readConfig, readRepository, splitFrontMatter, splitTitle, writeIncludeFile, writePageFile, writeSummary, type ExportedPage, type RepositoryPage } from '../../src/content/gitbook/repository.ts';

const source = (files: Record<string, string>) => ({ paths: Object.keys(files), read: async (path: string) => Buffer.from(files[path]) });
const shape = (pages: RepositoryPage[]): unknown[] => pages.map((page) => [page.kind, page.title, page.path ?? page.href ?? null, shape(page.children)]);

describe("GitBook's repository format", () => {
  it("reads a title of plain words as markdown reads it, without parsing it, and one with markdown's characters by parsing it", () => {
    const parsed = (line: string) => toString(parseGitBookMarkdown(line.trim()).root.children[0]);
    const plain = fc.stringMatching(/^[A-Za-zÀ-ÿ0-9 .,;'"?()/+=%-]{1,40}$/).filter((words) => words.trim().length > 0);
    fc.assert(
      fc.property(plain, fc.constantFrom('', ' ', '  #', ' ##'), (words, closing) => {
        expect(splitTitle(`# ${words}${closing}\n\nBody.`).title).toBe(parsed(`# ${words}${closing}`));
      }),
    );
    expect(splitTitle('# disable\\_functions bypass\n').title).toBe('disable_functions bypass');
    expect(splitTitle('# Caf&eacute; *menu*\n').title).toBe('Café menu');
  });

  it('writes the blocks of pages GitBook computes back at their place among their page\'s items, and one whose page is gone at the end of the top level', () => {
    const block = (indent: string, spec: string) => `${indent}* \`\`\`yaml\n${indent}  type: builtin:openapi\n${indent}  dependencies:\n${indent}    spec:\n${indent}      ref:\n${indent}        kind: openapi\n${indent}        spec: ${spec}\n${indent}  \`\`\`\n`;
    const summary = `# Table of contents\n\n* [Home](README.md)\n* [API](api/README.md)\n  * [Intro](api/intro.md)\n${block('  ', 'pets')}  * [Errors](api/errors.md)\n* [Old](old/README.md)\n${block('  ', 'legacy')}`;
    const blocks = computedPagesBlocksOf(summary, 'SUMMARY.md');
    expect(blocks.map(({ parent, index }) => [parent, index])).toEqual([['api/README.md', 1], ['old/README.md', 0]]);
    const page = (title: string, path: string, children: ExportedPage[] = []): ExportedPage => ({ kind: 'document', title, path, children });
    const pages = [page('Home', 'README.md'), page('API', 'api/README.md', [page('Intro', 'api/intro.md'), page('Errors', 'api/errors.md')]), page('Old', 'old/README.md')];
    expect(writeSummary(pages, 'SUMMARY.md', blocks)).toBe(summary);
    // The page that listed the legacy spec's pages is gone: its block stays, at the end.
    expect(writeSummary(pages.slice(0, 2), 'SUMMARY.md', blocks)).toBe(
      `# Table of contents\n\n* [Home](README.md)\n* [API](api/README.md)\n  * [Intro](api/intro.md)\n${block('  ', 'pets')}  * [Errors](api/errors.md)\n${block('', 'legacy')}`,
    );
    // After a group, the top level resumes after `***`, as GitBook writes it, or the block would be read into the group.
    const grouped = writeSummary([{ kind: 'group', title: 'Guides', children: [page('Intro', 'api/intro.md')] }], 'SUMMARY.md', blocks.slice(1));
    expect(grouped).toBe(`# Table of contents\n\n## Guides\n\n* [Intro](api/intro.md)\n\n***\n\n${block('', 'legacy')}`);
    expect(computedPagesBlocksOf(grouped, 'SUMMARY.md').map(({ parent }) => parent)).toEqual(['']);
  });

  it("reads the YAML block SUMMARY.md lists for pages GitBook computes as a computed page with GitBook's source, in its place, and writes it back there as written", async () => {
    const yaml = 'props:\n  models: false\n  grouping: by-operation\ntype: builtin:openapi\ndependencies:\n  spec:\n    ref:\n      kind: openapi\n      spec: pets';
    const block = (indent: string) => `${indent}* \`\`\`yaml\n${yaml.split('\n').map((line) => `${indent}  ${line}\n`).join('')}${indent}  \`\`\`\n`;
    const summary = `# Table of contents\n\n* [Home](README.md)\n* [API](api/README.md)\n${block('  ')}  * [Errors](api/errors.md)\n\n## Hooks\n\n${block('')}`;
    const read = await readRepository(source({ 'SUMMARY.md': summary, 'README.md': '# Home\n', 'api/README.md': '# API\n', 'api/errors.md': '# Errors\n' }));
    expect(shape(read.pages)).toEqual([
      ['document', 'Home', 'README.md', []],
      ['document', 'API', 'api/README.md', [['computed', 'OpenAPI: pets', null, []], ['document', 'Errors', 'api/errors.md', []]]],
      ['group', 'Hooks', null, [['computed', 'OpenAPI: pets', null, []]]],
    ]);
    const computed = read.pages[1].children[0].computed!;
    expect(computed).toEqual({ source: { props: { models: false, grouping: 'by-operation' }, type: 'builtin:openapi', dependencies: { spec: { ref: { kind: 'openapi', spec: 'pets' } } } }, yaml });
    expect(read.warnings).toEqual([expect.stringMatching(/^SUMMARY\.md: pages GitBook computes \(builtin:openapi\) from the OpenAPI spec "pets" are kept as a computed page, which Quire does not compute/), expect.any(String)]);

    const exported = (pages: RepositoryPage[]): ExportedPage[] =>
      pages.map((page) => ({ kind: page.kind, title: page.title, path: page.path, ...(page.computed ? { yaml: page.computed.yaml } : {}), children: exported(page.children) }));
    expect(writeSummary(exported(read.pages), 'SUMMARY.md')).toBe(summary);
    // A YAML block that is no source of computed pages stays out of the space, and is reported.
    const odd = await readRepository(source({ 'SUMMARY.md': '* [Home](README.md)\n  * ```yaml\n    just: words\n    ```\n', 'README.md': '# Home\n' }));
    expect(shape(odd.pages)).toEqual([['document', 'Home', 'README.md', []]]);
    expect(odd.warnings).toEqual([expect.stringMatching(/^SUMMARY\.md: a YAML block where GitBook lists the source of pages it computes is not such a source; it is left out/)]);
  });

  it('reads the reusable contents of .gitbook/includes, titled by their front matter or else their file, and writes them back as GitBook does', async () => {
    const support = writeIncludeFile('Support', '\n{% hint style="info" %}\nAsk us.\n{% endhint %}\n');
    expect(support).toBe('---\ntitle: Support\n---\n\n{% hint style="info" %}\nAsk us.\n{% endhint %}\n');
    const read = await readRepository(source({ '.gitbook.yaml': 'root: docs\n', 'docs/README.md': '# Home\n', 'docs/.gitbook/includes/support.md': support, 'docs/.gitbook/includes/release-notes.md': 'Every Monday.\n', '.gitbook/includes/outside.md': 'Not in the docs.' }));
    expect(read.includes).toEqual([
      { path: '.gitbook/includes/release-notes.md', title: 'release-notes', body: 'Every Monday.\n' },
      { path: '.gitbook/includes/support.md', title: 'Support', body: '\n{% hint style="info" %}\nAsk us.\n{% endhint %}\n' },
    ]);
    expect(read.warnings).toEqual([]);
  });

  it("reads .gitbook.yaml's root, structure and redirects relative to the project directory, with GitBook's defaults", () => {
    expect(readConfig(undefined, '')).toEqual({ root: '', readme: 'README.md', summary: 'SUMMARY.md', redirects: [] });
    expect(readConfig('root: ./docs/\nstructure:\n  readme: intro.md\n  summary: ./toc/SUMMARY.md\nredirects:\n  /old/page: new/page.md\n', 'site')).toEqual({
      root: 'site/docs',
      readme: 'intro.md',
      summary: 'toc/SUMMARY.md',
      redirects: [{ source: 'old/page', destination: 'new/page.md' }],
    });
    expect(() => readConfig('root: ../../etc\n', 'site')).toThrow('.gitbook.yaml: "root" leads outside the repository');
    expect(() => readConfig('structure:\n  summary: 3\n', '')).toThrow('.gitbook.yaml: "structure.summary" must be a path');
  });

  it('splits front matter and a leading title from a page, and names the file whose front matter is not YAML', () => {
    expect(splitFrontMatter('---\ndescription: Hi\nhidden: true\n---\n\n# Title\n\nBody', 'a.md')).toEqual({ front: { description: 'Hi', hidden: true }, frontText: 'description: Hi\nhidden: true\n', body: '\n# Title\n\nBody' });
    expect(splitTitle('\n# Title #\n\nBody')).toEqual({ title: 'Title', body: 'Body' });
    expect(splitTitle('Body only')).toEqual({ body: 'Body only' });
    expect(() => splitFrontMatter('---\n: [\n---\n', 'guide/a.md')).toThrow(/^guide\/a\.md: the front matter is not valid YAML/);
  });

  it('reads SUMMARY.md: groups, nesting, link titles, escaped and bracketed paths, and http links as link pages', async () => {
    const read = await readRepository(
      source({
        'SUMMARY.md':
          '# Table of contents\n\n* [Home](README.md)\n* [Set up](<set up/README.md> "Setup")\n  * [On Linux](set%20up/linux.md)\n* [Status](https://status.example.com)\n\n## API <a href="#api" id="api"></a>\n\n* [Reference](api/reference.md)\n',
        'README.md': '# Welcome home\n\nHi.',
        'set up/README.md': '---\nicon: gear\n---\n# Set up\n',
        'set up/linux.md': 'No heading here.',
        'api/reference.md': '# Reference\n',
      }),
    );
    expect(shape(read.pages)).toEqual([
      ['document', 'Home', 'README.md', []],
      ['document', 'Set up', 'set up/README.md', [['document', 'On Linux', 'set up/linux.md', []]]],
      ['link', 'Status', 'https://status.example.com', []],
      ['group', 'API', null, [['document', 'Reference', 'api/reference.md', []]]],
    ]);
    expect(read.pages[1].front).toEqual({ icon: 'gear' });
    // SUMMARY.md's words are the title; the file's heading, where it differs, is kept for the way back.
    expect(read.pages[0]).toMatchObject({ title: 'Home', heading: 'Welcome home' });
    expect(read.pages[1]).toMatchObject({ linkTitle: 'Setup' });
    expect(read.pages[1].children[0].body).toBe('No heading here.');
    expect(read.warnings).toEqual([]);
  });

  it("takes a page's title from SUMMARY.md and its link title from the link's own title, as GitBook documents, keeping the file's heading and front matter as written; a page SUMMARY.md does not list is titled by its heading", async () => {
    const read = await readRepository(
      source({
        'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Network Bridges](network/bridges.md "Bridges")\n',
        'README.md': '# Home\n',
        'network/bridges.md': '---\ntitle: Bridges\n---\n\n# Bridges\n\nLinks two networks.\n',
      }),
    );
    expect(read.pages[1]).toMatchObject({ title: 'Network Bridges', linkTitle: 'Bridges', heading: 'Bridges', front: { title: 'Bridges' }, frontText: 'title: Bridges\n', body: 'Links two networks.\n' });
    const unlisted = await readRepository(source({ 'SUMMARY.md': '* [Guide](guide.md)\n', 'README.md': '# Welcome\n', 'guide.md': '# Guide\n' }));
    expect(unlisted.pages[0]).toMatchObject({ title: 'Welcome' });
    expect(unlisted.pages[0].heading).toBeUndefined();
  });

  it('puts the README first when SUMMARY.md does not list it, and reads assets only from .gitbook/assets', async () => {
    const read = await readRepository(
      source({ 'SUMMARY.md': '* [Guide](guide.md)\n', 'README.md': '# Start\n', 'guide.md': '# Guide\n', '.gitbook/assets/a b.png': 'x', 'images/c.png': 'y' }),
    );
    expect(shape(read.pages)).toEqual([['document', 'Start', 'README.md', []], ['document', 'Guide', 'guide.md', []]]);
    expect(read.assets).toEqual(['.gitbook/assets/a b.png']);
  });

  it('reads and writes top-level pages after a group behind ***, which ends the group, as GitBook writes them', async () => {
    const summary = '# Table of contents\n\n* [Home](README.md)\n\n## Help\n\n* [Support](help/support.md)\n\n***\n\n* [Pricing](pricing.md)\n';
    const read = await readRepository(source({ 'SUMMARY.md': summary, 'README.md': '# Home\n', 'help/support.md': '# Support\n', 'pricing.md': '# Pricing\n' }));
    expect(shape(read.pages)).toEqual([
      ['document', 'Home', 'README.md', []],
      ['group', 'Help', null, [['document', 'Support', 'help/support.md', []]]],
      ['document', 'Pricing', 'pricing.md', []],
    ]);
    const written: ExportedPage[] = [
      { kind: 'document', title: 'Home', path: 'README.md', children: [] },
      { kind: 'group', title: 'Help', children: [{ kind: 'document', title: 'Support', path: 'help/support.md', children: [] }] },
      { kind: 'document', title: 'Pricing', path: 'pricing.md', children: [] },
    ];
    expect(writeSummary(written, 'SUMMARY.md')).toBe(summary);
  });

  it('writes SUMMARY.md as it reads it back, for any tree of pages, groups and links', async () => {
    const title = fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ()[\]_-]{0,12}[A-Za-z0-9]$/);
    const leaf = title.map((name): ExportedPage => ({ kind: 'document', title: name, children: [] }));
    const page: fc.Arbitrary<ExportedPage> = fc.letrec((tie) => ({
      page: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        leaf,
        fc.tuple(title, fc.array(tie('page') as fc.Arbitrary<ExportedPage>, { maxLength: 3 })).map(([name, children]): ExportedPage => ({ kind: 'document', title: name, children })),
        title.map((name): ExportedPage => ({ kind: 'link', title: name, href: `https://example.com/${encodeURIComponent(name)}`, children: [] })),
      ),
    })).page;
    const group = fc.tuple(title, fc.array(page, { minLength: 1, maxLength: 3 })).map(([name, children]): ExportedPage => ({ kind: 'group', title: name, children }));
    const tree = fc.array(fc.oneof(page, group), { maxLength: 5 });

    await fc.assert(
      fc.asyncProperty(tree, async (pages) => {
        // Each document gets a file of its own, named by its place in the tree.
        const files: Record<string, string> = {};
        const place = (entries: ExportedPage[], prefix: string): ExportedPage[] =>
          entries.map((entry, index) => {
            const path = entry.kind === 'document' ? `${prefix}${index} ${entry.title}.md` : undefined;
            if (path) files[path] = writePageFile({}, entry.title, '');
            return { ...entry, ...(path ? { path } : {}), children: place(entry.children, `${prefix}${index}/`) };
          });
        const placed = place(pages, 'p/');
        files['SUMMARY.md'] = writeSummary(placed, 'SUMMARY.md');
        const read = await readRepository(source(files));
        const expected = (entries: ExportedPage[]): unknown[] => entries.map((entry) => [entry.kind, entry.title, entry.path ?? entry.href ?? null, expected(entry.children)]);
        expect(shape(read.pages), files['SUMMARY.md']).toEqual(expected(placed));
        expect(read.warnings).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });

  it('writes a page as its front matter, every field of it, its title as a heading and its body, a blank line after the title even when nothing follows, as GitBook does', () => {
    expect(writePageFile({}, 'Guide', 'Body.\n')).toBe('# Guide\n\nBody.\n');
    // A title is text: written escaped as GitBook writes it, read back to the same words.
    for (const [title, line] of [['disable_functions bypass', '# disable\\_functions bypass'], ['The guide [updated for 2026]', '# The guide \\[updated for 2026]'], ['C# & *nix', '# C# & \\*nix'], ['Task completion ', '# Task completion&#x20;']]) {
      expect(writePageFile({}, title, '').split('\n')[0]).toBe(line);
      expect(splitTitle(`${line}\n\nBody.\n`)).toEqual({ title, body: 'Body.\n' });
    }
    // The writer's blank line after the last block is GitBook's empty paragraph there: it stays.
    expect(writePageFile({}, 'Guide', '<table></table>\n\n')).toBe('# Guide\n\n<table></table>\n\n');
    expect(writeIncludeFile('Support', 'Ask us.\n\n')).toBe('---\ntitle: Support\n---\n\nAsk us.\n\n');
    expect(writePageFile({ description: 'About: it', hidden: true, coverHeight: 461 }, 'Guide', '')).toBe("---\ndescription: 'About: it'\nhidden: true\ncoverHeight: 461\n---\n\n# Guide\n\n");
    expect(writePageFile('icon:   rocket # as written\n', 'Guide', '')).toBe('---\nicon:   rocket # as written\n---\n\n# Guide\n\n');
  });

  it("writes front matter as GitBook's repositories have it: long text folded at 80 columns, a no-break space escaped in double quotes", () => {
    const description = 'Create and publish documentation your users will love, with tools to build guides, references and more.';
    expect(writePageFile({ description, icon: 'book' }, 'Guide', '')).toBe(
      '---\ndescription: >-\n  Create and publish documentation your users will love, with tools to build\n  guides, references and more.\nicon: book\n---\n\n# Guide\n\n',
    );
    expect(writePageFile({ description: 'Add pages —\u00a0and links' }, 'Guide', '')).toBe('---\ndescription: "Add pages —\\_and links"\n---\n\n# Guide\n\n');
  });
});
