import { describe, expect, it } from 'vitest';
import { WeightBoundedCache } from '../../src/lib/weightBoundedCache.ts';

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
