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
  /** Milliseconds, for the transfer rate (tests pass their own). */
  now?: () => number;
}

/** The rate is measured over the last few seconds, so a stall shows as a falling rate. */
const RATE_WINDOW_MS = 5000;
/** No rate before this much of a window: the first bytes say nothing. */
const RATE_MIN_SPAN_MS = 500;

/** Bytes per second over a sliding window of (time, bytes so far) samples. */
export class RateMeter {
  private readonly samples: { at: number; bytes: number }[] = [];

  add(at: number, bytes: number): void {
    const last = this.samples.at(-1);
    if (last && last.at === at) last.bytes = bytes;
    else this.samples.push({ at, bytes });
    while (this.samples.length > 2 && at - this.samples[0]!.at > RATE_WINDOW_MS) this.samples.shift();
  }

  /** Bytes per second, or undefined until the window spans enough time. */
  rate(): number | undefined {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.at - first.at < RATE_MIN_SPAN_MS) return undefined;
    return Math.max(0, ((last.bytes - first.bytes) * 1000) / (last.at - first.at));
  }
}

/** `12.3 MiB/s`, at most 12 characters; blank when unknown. */
export function formatRate(bytesPerSecond: number | undefined): string {
  if (bytesPerSecond === undefined) return '';
  return `${formatBytes(Math.round(bytesPerSecond))}/s`;
}

/** Time left, at most 6 characters: `45s`, `4m05s`, `2h10m`, `>99h`; blank when unknown. */
export function formatEta(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds)) return '';
  const s = Math.ceil(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  if (s < 100 * 3600)
    return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  return '>99h';
}

/** The columns of a bar line besides the bar itself (see FORMAT); the bar takes what is left. */
const FIXED_WIDTH = 1 + 12 + 1 + 1 + 4 + 1 + 21 + 1 + 12 + 1 + 6 + 1 + 7;
const FORMAT = ' {label} {bar} {percentage}% {amount} {rate} {left} {state}';

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
  return barProgress(io, opts.now ?? Date.now);
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

async function barProgress(io: IO, now: () => number): Promise<TransferProgress> {
  const cliProgress = (await import('cli-progress')).default;
  const columns = io.columns ?? 80;
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
      format: FORMAT,
      // The bar takes what the rest of the line leaves (and the last column, where some terminals
      // wrap): 80 columns hold every field.
      barsize: Math.max(8, Math.min(40, columns - FIXED_WIDTH - 1)),
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
  /** The fields of one line: amount, rate and time left padded, so the columns stay put. */
  const fields = (have: number, size: number, meter: RateMeter | undefined, state: string) => {
    const rate = meter?.rate();
    const eta = rate && rate > 0 && size > have ? (size - have) / rate : undefined;
    return {
      amount: `${formatBytes(have)}/${formatBytes(size)}`.padStart(21),
      rate: (meter && state === 'sending' ? formatRate(rate) : '').padStart(12),
      // Not `eta`: cli-progress fills a field of that name with its own estimate.
      left: (meter && state === 'sending' ? formatEta(eta) : '').padStart(6),
      state: state.padEnd(7),
    };
  };
  type BarState = {
    bar: ReturnType<typeof multi.create>;
    have: number;
    size: number;
    meter: RateMeter;
    state: string;
  };
  const bars = new Map<string, BarState>();
  let totalSize = 0;
  let totalHave = 0;
  const totalMeter = new RateMeter();
  const total = multi.create(0, 0, { label: 'total       ', ...fields(0, 0, undefined, '') });
  const refreshTotal = () => {
    totalMeter.add(now(), totalHave);
    const busy = [...bars.values()].some((b) => b.state === 'sending');
    total.setTotal(Math.max(totalSize, 1));
    total.update(totalHave, fields(totalHave, totalSize, totalMeter, busy ? 'sending' : ''));
  };
  const ensure = (digest: string, size: number) => {
    let b = bars.get(digest);
    if (!b) {
      b = {
        bar: multi.create(Math.max(size, 1), 0, {
          label: shortDigest(digest),
          ...fields(0, size, undefined, 'waiting'),
        }),
        have: 0,
        size,
        meter: new RateMeter(),
        state: 'waiting',
      };
      bars.set(digest, b);
      totalSize += size;
      refreshTotal();
    }
    return b;
  };
  const draw = (b: BarState) => b.bar.update(b.have, fields(b.have, b.size, b.meter, b.state));
  return {
    begin(digest, size) {
      const b = ensure(digest, size);
      b.state = 'sending';
      b.meter.add(now(), b.have);
      draw(b);
    },
    update(digest, have) {
      const b = ensure(digest, 0);
      totalHave += have - b.have;
      b.have = have;
      b.state = 'sending';
      b.meter.add(now(), have);
      draw(b);
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
      b.bar.update(b.have, { label: shortDigest(to), ...fields(b.have, size, b.meter, b.state) });
      refreshTotal();
    },
    done(digest, size, action) {
      const b = ensure(digest, size);
      totalHave += size - b.have;
      b.have = size;
      b.state = action;
      b.bar.update(Math.max(size, 1), fields(size, b.size, b.meter, action));
      refreshTotal();
    },
    stop() {
      multi.stop();
    },
  };
}
