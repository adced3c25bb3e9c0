// A space's tag library: GitBook's .gitbook/tags.yaml read and written back byte for
// byte, through an import and an export, and merged three-way.
import { describe, expect, it } from 'vitest';
import { writeAsRepository } from '../../src/content/gitbook/exportedContent.ts';
import { baselineOf, importedContent } from '../../src/content/gitbook/importedContent.ts';
import { readConfig, readRepository } from '../../src/content/gitbook/repository.ts';
import { readTagsFile, writeTagsFile } from '../../src/content/gitbook/tagsFile.ts';
import { MemoryObjectStore } from '../../src/content/objects.ts';
import { mergeTagLibraries, readTagLibrary, writeTagLibrary, type TagLibrary } from '../../src/content/tagLibrary.ts';

/** Every field GitBook writes, in its order: a tag with an icon and a colour, one with an emoji, one with its label alone. */
const TAGS_YAML = `- tag: new
  label: New
  icon: sparkles
  color: $primary
- tag: beta
  label: Beta feature
  emoji: 1f9ea
- tag: add-on
  label: Add-on
`;

describe('the tag library', () => {
  it('reads every field of tags.yaml and writes it back byte for byte', () => {
    const warnings: string[] = [];
    const library = readTagsFile(TAGS_YAML, warnings);
    expect(library).toEqual({
      tags: [
        { slug: 'new', label: 'New', icon: 'sparkles', color: '$primary' },
        { slug: 'beta', label: 'Beta feature', emoji: '1f9ea' },
        { slug: 'add-on', label: 'Add-on' },
      ],
    });
    expect(warnings).toEqual([]);
    expect(writeTagsFile(library)).toBe(TAGS_YAML);
  });

  it('keeps a file written otherwise as it was while its tags stay, and writes GitBook’s form once they change', () => {
    const handWritten = `# Our tags\n- tag: "pro"\n  label: 'Pro: paid plans'\n  color: purple\n  owner: docs-team\n- {tag: 7, label: Seven}\n- label: No slug\n`;
    const warnings: string[] = [];
    const library = readTagsFile(handWritten, warnings);
    expect(library.tags).toEqual([
      { slug: 'pro', label: 'Pro: paid plans', color: 'purple' },
      { slug: '7', label: 'Seven' },
    ]);
    expect(warnings).toEqual(['.gitbook/tags.yaml: entry 3 names no tag; it is left out']);
    expect(writeTagsFile(library)).toBe(handWritten);
    const relabelled: TagLibrary = { ...library, tags: [{ ...library.tags[0], label: 'Pro' }, library.tags[1]] };
    expect(writeTagsFile(relabelled)).toBe("- tag: pro\n  label: Pro\n  color: purple\n- tag: '7'\n  label: Seven\n");
    expect(readTagsFile('tag: x\n', warnings)).toEqual({ tags: [] });
    expect(warnings.at(-1)).toBe('.gitbook/tags.yaml is not a list of tags; the space has no tags');
  });

  it('is stored as one object, and a revision without tags stores none', async () => {
    const store = new MemoryObjectStore();
    expect(await writeTagLibrary(store, { tags: [] })).toBeNull();
    expect(await readTagLibrary(store, null)).toEqual({ tags: [] });
    const library = readTagsFile(TAGS_YAML, []);
    const hash = await writeTagLibrary(store, library);
    expect(await readTagLibrary(store, hash)).toEqual(library);
  });

  it('merges three-way, tag by tag and field by field, keeping the file as written where a side’s tags are the merge’s', () => {
    const base = readTagsFile(TAGS_YAML, []);
    const [fresh, beta, addOn] = base.tags;
    const ours: TagLibrary = { tags: [{ ...fresh, label: 'Just out' }, beta, addOn, { slug: 'ours', label: 'Ours' }] };
    const theirs: TagLibrary = { tags: [{ ...fresh, color: 'green' }, addOn, { slug: 'theirs', label: 'Theirs' }] };
    expect(mergeTagLibraries(base, ours, theirs).tags).toEqual([
      { slug: 'new', label: 'Just out', icon: 'sparkles', color: 'green' },
      // Deleted on their side, unchanged on ours: gone.
      addOn,
      { slug: 'ours', label: 'Ours' },
      { slug: 'theirs', label: 'Theirs' },
    ]);
    const written = { tags: base.tags, written: `# kept\n${TAGS_YAML}` };
    expect(mergeTagLibraries(base, base, written)).toEqual(written);
    expect(mergeTagLibraries(base, written, ours).written).toBeUndefined();
  });

  it('comes in with a repository and goes back out with it, byte for byte', async () => {
    const files: Record<string, string> = {
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n',
      'README.md': '---\ntags:\n  - new\n  - beta\n---\n\n# Home\n\nTagged.\n',
      '.gitbook/tags.yaml': TAGS_YAML,
    };
    const source = { paths: Object.keys(files), read: async (path: string) => Buffer.from(files[path]) };
    const store = new MemoryObjectStore();
    const content = await importedContent(store, '2026-12-06T10:00:00.000Z', await readRepository(source), async (path) => Buffer.from(files[path]), () => undefined, baselineOf('r0', { tree: new Map(), files: [], reusables: [] }, undefined, ''));
    await store.put(content.blobs);
    expect(content.tags.tags.map((tag) => tag.slug)).toEqual(['new', 'beta', 'add-on']);
    expect([...content.tree.values()][0].meta.tags).toEqual(['new', 'beta']);
    const written = new Map<string, string>();
    await writeAsRepository(store, content, readConfig(undefined, ''), { pages: new Map(), reusables: new Map() }, new Map(), async (path, bytes) => void written.set(path, bytes.toString('utf8')));
    expect(Object.fromEntries(written)).toEqual(files);
  });
});
