// The two bounds of src/pool.ts: runPool over a list, Limiter across callers.
import { expect, it } from 'vitest';
import { Limiter, runPool } from '../src/pool.js';

const tick = () => new Promise<void>((r) => setTimeout(r, 1));

it('Limiter: never more than its limit at once across callers, started in the order asked', async () => {
  const limit = new Limiter(3);
  let running = 0;
  let most = 0;
  const started: string[] = [];
  const task = (name: string, ticks: number) =>
    limit.run(async () => {
      started.push(name);
      most = Math.max(most, ++running);
      for (let i = 0; i < ticks; i++) await tick();
      running--;
      return name;
    });
  // Two callers asking at once, as sync's mappings do.
  const a = Promise.all(['a1', 'a2', 'a3', 'a4'].map((n, i) => task(n, 1 + i)));
  const b = Promise.all(['b1', 'b2', 'b3'].map((n) => task(n, 2)));
  expect(await a).toEqual(['a1', 'a2', 'a3', 'a4']);
  expect(await b).toEqual(['b1', 'b2', 'b3']);
  expect(most).toBe(3);
  expect(started.slice(0, 3)).toEqual(['a1', 'a2', 'a3']);
  expect(started).toHaveLength(7);
});

it('Limiter: a failed task frees its slot; its error reaches its caller only', async () => {
  const limit = new Limiter(1);
  const failed = limit.run(async () => {
    throw new Error('no');
  });
  const next = limit.run(async () => 'yes');
  await expect(failed).rejects.toThrow('no');
  expect(await next).toBe('yes');
  expect(await limit.run(async () => 'again')).toBe('again');
});

it('runPool: results in order, at most `limit` at once', async () => {
  let running = 0;
  let most = 0;
  const out = await runPool([5, 1, 3, 2, 4], 2, async (n) => {
    most = Math.max(most, ++running);
    for (let i = 0; i < n; i++) await tick();
    running--;
    return n * 10;
  });
  expect(out).toEqual([50, 10, 30, 20, 40]);
  expect(most).toBe(2);
});

it('Limiter.acquire: a freed slot goes to the task waiting, not to one asking meanwhile; a second release does nothing', async () => {
  const limit = new Limiter(1);
  const release = await limit.acquire();
  let waiterIn = false;
  const waiter = limit.acquire().then((r) => {
    waiterIn = true;
    return r;
  });
  release();
  release();
  // Asked in the same turn as the release, before the waiter has run: it waits for the slot.
  let lateIn = false;
  const late = limit.acquire().then((r) => {
    lateIn = true;
    return r;
  });
  const releaseWaiter = await waiter;
  await tick();
  expect(waiterIn).toBe(true);
  expect(lateIn).toBe(false);
  releaseWaiter();
  (await late)();
  expect(lateIn).toBe(true);
});
