// Transfer progress for image pull/push/copy. On a terminal: a cli-progress bar per blob and a
// total (stderr). Off a terminal: one line per finished blob (stderr). Never stdout; nothing with
// --json or --quiet. The only user of cli-progress, loaded only when a bar is drawn.

import { escapeControl } from './escape.js';
import type { IO } from './io.js';

export type BlobAction = 'pushed' | 'mounted' | 'skipped' | 'pulled' | 'copied';

export interface TransferProgress {
  /** A blob's transfer starts (or is known to be needed). */
  begin(digest: string, size: number): void;
  /** Bytes of the blob transferred so far (absolute). */
  update(digest: string, have: number): void;
  /** The blob is done. */
  done(digest: string, size: number, action: BlobAction): void;
  /** A blob sent while it was made was shown under `from` (its source's digest): now `to`. */
  relabel?(from: string, to: string, size: number): void;
  /** Removes the bars; call once, also after a failure. */
  stop(): void;
}

export interface ProgressOptions {
  json: boolean;
  quiet: boolean;
}

const noop: TransferProgress = { begin() {}, update() {}, done() {}, stop() {} };

export function formatBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${v} B` : `${v.toFixed(1)} ${units[i]}`;
}

/** The first 12 hex digits; a digest comes from a server, so the label is escaped like any text. */
export function shortDigest(digest: string): string {
  return escapeControl(digest.replace(/^sha256:/, '').slice(0, 12));
}

export async function createTransferProgress(io: IO, opts: ProgressOptions): Promise<TransferProgress> {
  if (opts.json || opts.quiet) return noop;
  if (!io.stderrIsTTY) return lineProgress(io);
  return barProgress(io);
}

/** Off a terminal: `pushed sha256:0123456789ab 12.0 MiB`, one line per blob. */
function lineProgress(io: IO): TransferProgress {
  return {
    begin() {},
    update() {},
    done(digest, size, action) {
      io.stderr.write(`${action} ${shortDigest(digest)} ${formatBytes(size)}\n`);
    },
    stop() {},
  };
}

async function barProgress(io: IO): Promise<TransferProgress> {
  const cliProgress = (await import('cli-progress')).default;
  const stream = {
    isTTY: true,
    get columns() {
      return io.columns ?? 80;
    },
    write(chunk: string) {
      io.stderr.write(chunk);
      return true;
    },
    on() {
      return stream;
    },
    removeListener() {
      return stream;
    },
  };
  const multi = new cliProgress.MultiBar(
    {
      stream: stream as unknown as NodeJS.WritableStream,
      format: ' {label} [{bar}] {percentage}% | {done}/{size} | {state}',
      barCompleteChar: '\u2588',
      barIncompleteChar: '\u2591',
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      autopadding: true,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  const bars = new Map<string, { bar: ReturnType<typeof multi.create>; have: number; size: number }>();
  let totalSize = 0;
  let totalHave = 0;
  const total = multi.create(0, 0, {
    label: 'total       ',
    size: formatBytes(0),
    done: formatBytes(0),
    state: '',
  });
  const refreshTotal = () => {
    total.setTotal(Math.max(totalSize, 1));
    total.update(totalHave, { size: formatBytes(totalSize), done: formatBytes(totalHave) });
  };
  const ensure = (digest: string, size: number) => {
    let b = bars.get(digest);
    if (!b) {
      b = {
        bar: multi.create(Math.max(size, 1), 0, {
          label: shortDigest(digest),
          size: formatBytes(size),
          done: formatBytes(0),
          state: 'waiting',
        }),
        have: 0,
        size,
      };
      bars.set(digest, b);
      totalSize += size;
      refreshTotal();
    }
    return b;
  };
  return {
    begin(digest, size) {
      ensure(digest, size).bar.update(0, { state: 'transferring' });
    },
    update(digest, have) {
      const b = ensure(digest, 0);
      totalHave += have - b.have;
      b.have = have;
      b.bar.update(have, { done: formatBytes(have), state: 'transferring' });
      refreshTotal();
    },
    relabel(from, to, size) {
      const b = bars.get(from);
      if (!b) return;
      bars.delete(from);
      bars.set(to, b);
      totalSize += size - b.size;
      b.size = size;
      b.bar.setTotal(Math.max(size, 1));
      b.bar.update(b.have, { label: shortDigest(to), size: formatBytes(size) });
      refreshTotal();
    },
    done(digest, size, action) {
      const b = ensure(digest, size);
      totalHave += size - b.have;
      b.have = size;
      b.bar.update(Math.max(size, 1), { done: formatBytes(size), state: action });
      refreshTotal();
    },
    stop() {
      multi.stop();
    },
  };
}
