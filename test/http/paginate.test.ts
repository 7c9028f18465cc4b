import { describe, expect, it } from 'vitest';
import { UnexpectedAnswerError } from '../../src/errors.js';
import { collect, nextPageUrl, paginate } from '../../src/http/paginate.js';

const limits = { host: 'hub.example.test', what: 'listing things', maxPages: 5, maxItems: 10 };

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
    }, limits);
    const first = await it.next();
    expect(first.value).toBe(1);
    expect(asked).toEqual([undefined]);
    expect(await collect(it)).toEqual([2, 3]);
    expect(asked).toEqual([undefined, 'p2', 'p3']);
  });

  it('a repeated cursor is an unexpected answer, not a loop or a silent stop', async () => {
    let calls = 0;
    const err = await collect(
      paginate<string>(async (cursor) => {
        calls++;
        return { items: [cursor ?? 'first'], next: calls < 3 ? `c${calls}` : 'c1' };
      }, limits),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnexpectedAnswerError);
    expect((err as Error).message).toBe(
      'listing things: unexpected answer from hub.example.test: a page points back to an earlier page',
    );
    expect(calls).toBe(3);
  });

  it('stops an endless chain at maxPages, and a long list at maxItems', async () => {
    let calls = 0;
    const endless = await collect(
      paginate<number>(async () => ({ items: [++calls], next: `c${calls}` }), { ...limits, maxItems: 1e9 }),
    ).catch((e: unknown) => e);
    expect((endless as Error).message).toMatch(/past 5 pages$/);
    expect(calls).toBe(5);
    const long = await collect(
      paginate<number>(async (c) => ({ items: [1, 2, 3, 4], next: `${c ?? ''}x` }), {
        ...limits,
        maxPages: 1e9,
      }),
    ).catch((e: unknown) => e);
    expect(long).toBeInstanceOf(UnexpectedAnswerError);
    expect((long as Error).message).toMatch(/past 10 items$/);
  });

  it('propagates a failing page', async () => {
    const it = paginate<number>(async (cursor) => {
      if (cursor) throw new Error('page 2 failed');
      return { items: [1], next: 'x' };
    }, limits);
    await expect(collect(it)).rejects.toThrow('page 2 failed');
  });
});

describe('nextPageUrl', () => {
  const page = 'https://hub.example.test/v2/access-tokens?page=1';
  it('resolves relative and absolute links on the same origin', () => {
    expect(nextPageUrl('?page=2', page)).toBe('https://hub.example.test/v2/access-tokens?page=2');
    expect(nextPageUrl('https://hub.example.test:443/v2/access-tokens?page=3', page)).toBe(
      'https://hub.example.test/v2/access-tokens?page=3',
    );
  });
  it.each([
    'https://evil.example.test/v2/access-tokens?page=2',
    'http://hub.example.test/v2/access-tokens?page=2',
    'https://hub.example.test:8443/v2/access-tokens?page=2',
    '//evil.example.test/x',
    'https://hub.example.test.evil.test/x',
  ])('refuses %s (another origin)', (link) => {
    expect(() => nextPageUrl(link, page, 'listing access tokens')).toThrow(UnexpectedAnswerError);
    expect(() => nextPageUrl(link, page, 'listing access tokens')).toThrow(
      /^listing access tokens: unexpected answer from hub\.example\.test: the next page is on another server \(/,
    );
  });
  it('refuses a link that is not a URL', () => {
    expect(() => nextPageUrl('http://[bad', page)).toThrow(/is not a URL/);
  });
});
