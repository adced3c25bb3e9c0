import { describe, expect, it } from 'vitest';
import { WeightBoundedCache } from '../../src/lib/weightBoundedCache.ts';
import { RevisionCaches } from '../../src/services/revisionCaches.ts';

describe('a weight-bounded cache', () => {
  it('lets the least recently read entries go once what it holds passes its weight', () => {
    const cache = new WeightBoundedCache<string>(10, (text) => text.length);
    cache.keep('a', 'aaaa');
    cache.keep('b', 'bbbb');
    expect(cache.get('a')).toBe('aaaa');
    cache.keep('c', 'cccc');
    expect([cache.has('a'), cache.has('b'), cache.has('c')]).toEqual([true, false, true]);
    cache.forget('a');
    cache.keep('d', 'dddddd');
    expect([cache.has('c'), cache.has('d')]).toEqual([true, true]);
  });

  it('keeps no entry heavier than its largest, and keeps an entry alone when it weighs more than the whole', () => {
    const bounded = new WeightBoundedCache<string>(100, (text) => text.length, 8);
    bounded.keep('small', 'x'.repeat(8));
    bounded.keep('large', 'x'.repeat(9));
    expect([bounded.has('small'), bounded.has('large')]).toEqual([true, false]);
    const unbounded = new WeightBoundedCache<string>(4, (text) => text.length);
    unbounded.keep('a', 'aa');
    unbounded.keep('huge', 'x'.repeat(50));
    expect([unbounded.has('a'), unbounded.has('huge')]).toEqual([false, true]);
  });

  it('finds the most recently read entry that matches, without reading it', () => {
    const cache = new WeightBoundedCache<string>(12, (text) => text.length);
    cache.keep('first', 'ab');
    cache.keep('second', 'abc');
    cache.keep('third', 'xyz');
    expect(cache.get('first')).toBe('ab');
    expect(cache.find((text) => text.startsWith('a'))).toBe('ab');
    expect(cache.find((text) => text.length === 3)).toBe('xyz');
    expect(cache.find((text) => text === 'none')).toBeUndefined();
    // Found is not read: the least recently read still goes first.
    cache.find((text) => text === 'abc');
    cache.keep('fourth', 'wxyz1234');
    expect([cache.has('second'), cache.has('third'), cache.has('first')]).toEqual([false, false, true]);
  });
});

describe('a cleared cache', () => {
  it('forgets every entry and weighs nothing, so it keeps as much again as when new', () => {
    const cache = new WeightBoundedCache<string>(8, (text) => text.length);
    cache.keep('a', 'aaaa');
    cache.keep('b', 'bbbb');
    cache.clear();
    expect([cache.has('a'), cache.has('b')]).toEqual([false, false]);
    cache.keep('c', 'cccc');
    cache.keep('d', 'dddd');
    expect([cache.has('c'), cache.has('d')]).toEqual([true, true]);
  });

  it('is how a test resets what the revisions service keeps (ctx.revisions): every cache at once', () => {
    const caches = new RevisionCaches();
    caches.trees.keep('root', new Map());
    caches.revisions.keep('revision', { id: 'revision', parents: '[]', root_hash: 'root', files_hash: 'f', reusables_hash: 'r', created_by: null, created_at: '' } as never);
    caches.markdownTexts.keep('blob', '# Page');
    caches.pageAnswers.keep('page', '{}');
    caches.documents.keep('blob', '{}');
    caches.gitFiles.keep('oid', Buffer.from('# Page'));
    caches.clear();
    expect([caches.trees.has('root'), caches.revisions.has('revision'), caches.markdownTexts.has('blob'), caches.pageAnswers.has('page'), caches.documents.has('blob'), caches.gitFiles.has('oid')]).toEqual([false, false, false, false, false, false]);
  });
});
