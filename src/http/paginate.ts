// Pagination as an async iterable: the caller says how to fetch a page from a cursor and how to
// find the next cursor. Every list is capped: a chain of pages that never ends, a cursor the
// server repeats, or a link to another origin is an unexpected answer (exit 7), never followed.
import { UnexpectedAnswerError } from '../errors.js';

export interface Page<T> {
  items: T[];
  next?: string | null;
}

export interface PageLimits {
  /** The server that answers, `host[:port]`, for messages. */
  host: string;
  /** What we were doing ("listing access tokens"), prefixed to messages. */
  what?: string;
  maxPages: number;
  maxItems: number;
}

export async function* paginate<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  limits: PageLimits,
): AsyncGenerator<T> {
  const fail = (why: string) =>
    new UnexpectedAnswerError(
      `${limits.what ? `${limits.what}: ` : ''}unexpected answer from ${limits.host}: ${why}`,
    );
  const seen = new Set<string>();
  let cursor: string | undefined;
  let items = 0;
  for (let pages = 1; ; pages++) {
    const page = await fetchPage(cursor);
    items += page.items.length;
    if (items > limits.maxItems) throw fail(`the list goes on past ${limits.maxItems} items`);
    yield* page.items;
    if (!page.next) return;
    if (seen.has(page.next) || page.next === cursor) throw fail('a page points back to an earlier page');
    if (pages >= limits.maxPages) throw fail(`the list goes on past ${limits.maxPages} pages`);
    seen.add(page.next);
    cursor = page.next;
  }
}

/**
 * The absolute URL of a `next` link, resolved against the page that named it; a link to another
 * origin (scheme, host, port) is refused: following it would take the caller's credential or
 * trust elsewhere.
 */
export function nextPageUrl(link: string, pageUrl: string | URL, what?: string): string {
  const base = new URL(String(pageUrl));
  let next: URL;
  try {
    next = new URL(link, base);
  } catch {
    throw new UnexpectedAnswerError(
      `${what ? `${what}: ` : ''}unexpected answer from ${base.host}: the next page's link is not a URL`,
    );
  }
  if (next.origin !== base.origin) {
    throw new UnexpectedAnswerError(
      `${what ? `${what}: ` : ''}unexpected answer from ${base.host}: the next page is on another server (${next.origin})`,
    );
  }
  return next.toString();
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
