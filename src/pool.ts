// Runs tasks with at most `limit` in flight; the first failure stops new tasks and is thrown
// once the running ones have settled.

export async function runPool<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failure: { err: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i]!, i);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure) throw failure.err;
  return results;
}

/**
 * At most `limit` tasks at once across any number of callers, started in the order they asked: one
 * bound for work that arrives from several places (image sync's tag listings and tag plans).
 */
export class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /** Waits for a slot; answers the function that frees it (once). */
  async acquire(): Promise<() => void> {
    if (this.active < Math.max(1, this.limit)) this.active++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let done = false;
    return () => {
      if (done) return;
      done = true;
      // The slot passes to the next task waiting, else it is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }
}
