import { describe, expect, it } from 'vitest';
import { collect, paginate } from '../../src/http/paginate.js';

describe('paginate', () => {
  it('follows cursors until null, lazily', async () => {
    const pages: Record<string, { items: number[]; next: string | null }> = {
      start: { items: [1, 2], next: 'p2' },
      p2: { items: [3], next: 'p3' },
      p3: { items: [], next: null },
    };
    const asked: (string | undefined)[] = [];
    const it = paginate<number>(async (cursor) => {
      asked.push(cursor);
      return pages[cursor ?? 'start']!;
    });
    const first = await it.next();
    expect(first.value).toBe(1);
    expect(asked).toEqual([undefined]);
    expect(await collect(it)).toEqual([2, 3]);
    expect(asked).toEqual([undefined, 'p2', 'p3']);
  });

  it('stops at a repeated cursor instead of looping forever', async () => {
    let calls = 0;
    const items = await collect(
      paginate<string>(async (cursor) => {
        calls++;
        return { items: [cursor ?? 'first'], next: 'same' };
      }),
    );
    expect(items).toEqual(['first', 'same']);
    expect(calls).toBe(2);
  });

  it('propagates a failing page', async () => {
    const it = paginate<number>(async (cursor) => {
      if (cursor) throw new Error('page 2 failed');
      return { items: [1], next: 'x' };
    });
    await expect(collect(it)).rejects.toThrow('page 2 failed');
  });
});
