import { queueOptionsSymbol } from 'piscina';
import { describe, expect, it } from 'vitest';
import { runInTextBatches, WaitedForFirstQueue, type Priority } from '../../src/workers/pool.ts';

const task = (name: string, priority?: Priority) => ({ name, [queueOptionsSymbol]: priority ? { priority } : null }) as never;
const names = (queue: WaitedForFirstQueue) => {
  const out: string[] = [];
  for (let next = queue.shift(); next; next = queue.shift()) out.push((next as unknown as { name: string }).name);
  return out;
};

describe("the worker pool's queue", () => {
  it('starts background tasks only when no waited-for task is queued, each kind in the order it came', () => {
    const queue = new WaitedForFirstQueue();
    queue.push(task('links 1', 'background'));
    queue.push(task('search 1'));
    queue.push(task('links 2', 'background'));
    queue.push(task('search 2', 'waited-for'));
    expect(queue.size).toBe(4);
    expect(names(queue)).toEqual(['search 1', 'search 2', 'links 1', 'links 2']);
    expect(queue.size).toBe(0);
  });

  it('puts a task it could not start back first of its kind, and forgets a removed one', () => {
    const queue = new WaitedForFirstQueue();
    const aborted = task('aborted');
    queue.push(task('later'));
    queue.push(aborted);
    queue.push(task('documents', 'background'));
    queue.unshift(task('put back'));
    queue.remove(aborted);
    expect(names(queue)).toEqual(['put back', 'later', 'documents']);
  });
});

describe('work in text batches', () => {
  it('hands over the next batch while one runs, and answers every result in order', async () => {
    const started: string[][] = [];
    const finish: Array<() => void> = [];
    const answered = runInTextBatches(['a', 'b', 'c'], () => 300 * 1024, (batch) => {
      started.push(batch);
      return new Promise<string[]>((resolve) => finish.push(() => resolve(batch.map((item) => item.toUpperCase()))));
    });
    await Promise.resolve();
    // The second batch waits in the queue while the first runs; the third only once the first is answered.
    expect(started).toEqual([['a'], ['b']]);
    finish[0]();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([['a'], ['b'], ['c']]);
    finish[1]();
    finish[2]();
    expect(await answered).toEqual(['A', 'B', 'C']);
  });
});
