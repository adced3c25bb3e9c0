// Where the app's page tree moves a page (a drop above, below or inside a row; the
// Alt-Shift-Arrow keys) as update_page's `into` and `at`, and a renamed page's slug.
import { describe, expect, it } from 'vitest';
import type { PageEntry } from '../../web/src/features/pages/api/content.ts';
import { dropPlacement, indexPages, keyboardPlacement, slugAfterRename } from '../../web/src/features/pages/components/pageTree.ts';

const page = (id: string, type: PageEntry['type'] = 'document', pages: PageEntry[] = []): PageEntry => ({ id, title: id, type, kind: type === 'document' ? 'sheet' : type, path: id, pages });
// guide (basics, setup), install, github (a link), reference
const index = indexPages([page('guide', 'document', [page('basics'), page('setup')]), page('install'), page('github', 'link'), page('reference')]);

describe('moving a page in the tree', () => {
  it('drops above or below a row among its siblings, counting positions without the page moved', () => {
    expect(dropPlacement(index, 'reference', 'install', 'before')).toEqual({ into: null, at: 1 });
    expect(dropPlacement(index, 'guide', 'install', 'after')).toEqual({ into: null, at: 1 });
    expect(dropPlacement(index, 'install', 'basics', 'after')).toEqual({ into: 'guide', at: 1 });
  });

  it('drops inside a page or group, last, but never inside a link, itself, its own sub-pages or where it already is', () => {
    expect(dropPlacement(index, 'reference', 'install', 'inside')).toEqual({ into: 'install' });
    expect(dropPlacement(index, 'reference', 'github', 'inside')).toBeUndefined();
    expect(dropPlacement(index, 'guide', 'basics', 'inside')).toBeUndefined();
    expect(dropPlacement(index, 'guide', 'guide', 'before')).toBeUndefined();
    expect(dropPlacement(index, 'basics', 'guide', 'inside')).toBeUndefined();
    expect(dropPlacement(index, 'install', 'guide', 'after')).toBeUndefined();
  });

  it('moves by keys up and down among siblings, in under the page above, and out after its parent', () => {
    expect(keyboardPlacement(index, 'install', 'up')).toEqual({ into: null, at: 0 });
    expect(keyboardPlacement(index, 'install', 'down')).toEqual({ into: null, at: 2 });
    expect(keyboardPlacement(index, 'guide', 'up')).toBeUndefined();
    expect(keyboardPlacement(index, 'reference', 'down')).toBeUndefined();
    expect(keyboardPlacement(index, 'install', 'in')).toEqual({ into: 'guide' });
    expect(keyboardPlacement(index, 'reference', 'in')).toBeUndefined();
    expect(keyboardPlacement(index, 'setup', 'out')).toEqual({ into: null, at: 1 });
    expect(keyboardPlacement(index, 'install', 'out')).toBeUndefined();
  });
});

describe("a renamed page's slug", () => {
  it('is made anew from the new title when Quire made it from the old one, free among its siblings', () => {
    expect(slugAfterRename({ title: 'Install', slug: 'install' }, 'Setting up', [])).toBe('setting-up');
    expect(slugAfterRename({ title: 'Untitled', slug: 'untitled-2' }, 'Setup', ['setup'])).toBe('setup-2');
  });

  it('stays when the writer chose it', () => {
    expect(slugAfterRename({ title: 'Install', slug: 'get-it' }, 'Setting up', [])).toBe('get-it');
  });
});
