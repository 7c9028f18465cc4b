// The file of a resumable `audit export -o FILE`. Beside it, `FILE.hubctl-export` says whose it is:
// the key of the command (organization, audit address, filters, range as typed) and the range
// resolved on the first run (so `--since 7d` means the same week when resumed). Both are created
// exclusively, under a lock held for the whole export (another run to the same file is refused; a
// run killed with SIGKILL leaves a lock whose process is gone, taken over by the next).
//
// The output itself is the record of progress: events are appended newest first, so on resume the
// partial last line is cut off, the last complete line says the instant reached, and the lines at
// that instant say which of its events are written; reading continues from that instant
// (inclusive) and drops those. No duplicate, no gap, whatever moment the run was killed at.
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  linkSync,
  openSync,
  readFileSync,
  readSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { ConflictError, UsageError } from '../errors.js';
import { tryLock } from '../files/lock.js';
import type { TimePoint } from './query.js';

export const STATE_SUFFIX = '.hubctl-export';
/** The lock is held for the whole export; a dead holder on this host is detected by its pid. */
const LOCK_STALE_MS = 7 * 24 * 3_600_000;
const TAIL_CHUNK = 64 * 1024;
/** Ids kept from the last instant written (a burst sharing one instant); past this, refuse. */
const MAX_EDGE_IDS = 1_000_000;

interface ExportState {
  version: 1;
  key: string;
  from: string;
  to: string;
}

export interface ExportTarget {
  /** Where to continue: the range still to read (`to` inclusive), and what is already written at `to`. */
  range: { from: TimePoint; to: TimePoint };
  seed?: { ms: number; ids: string[] };
  resumed: boolean;
  /** Appends text (whole lines). */
  write(text: string | Buffer): void;
  /** The export is complete: flushes, removes the state file and the lock. */
  finish(): void;
  /** Releases the lock (the state stays, for the next run to resume). */
  close(): void;
}

export function exportKey(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/**
 * Opens FILE for a new export of `range`, or for resuming the unfinished export with the same key.
 * Refuses a FILE that is not this export's (exit 6), and a second run exporting to it.
 */
export function openExport(
  path: string,
  key: string,
  range: { from: TimePoint; to: TimePoint },
): ExportTarget {
  const statePath = `${path}${STATE_SUFFIX}`;
  // A second try: the first breaks a lock left by a run that was killed (its process is gone).
  const release = tryLock(statePath, LOCK_STALE_MS) ?? tryLock(statePath, LOCK_STALE_MS);
  if (!release)
    throw new ConflictError(`another hubctl is exporting to ${path}`, {
      hint: 'Wait for it to finish, or stop it; running the same command afterwards resumes the export.',
    });
  let fd: number | undefined;
  try {
    const hasState = existsSync(statePath);
    const hasOutput = existsSync(path);
    let state: ExportState;
    if (hasState) {
      state = readState(statePath, path);
      if (state.key !== key)
        throw new ConflictError(
          `${path} is an unfinished export of another command (other filters or range)`,
          {
            hint: `Run that command again to finish it, or remove ${path} and ${statePath} to start over.`,
          },
        );
    } else {
      if (hasOutput)
        throw new ConflictError(
          `${path} already exists and is not an unfinished export of this command: hubctl neither overwrites nor appends to it`,
          { hint: 'Choose another file with -o, or remove it first.' },
        );
      state = { version: 1, key, from: range.from.text, to: range.to.text };
      createExclusive(statePath, `${JSON.stringify(state)}\n`);
    }
    fd = openSync(path, hasOutput ? 'r+' : 'wx', 0o600);
    const from = { text: state.from, ms: Date.parse(state.from) };
    let to = { text: state.to, ms: Date.parse(state.to) };
    let seed: ExportTarget['seed'];
    if (hasOutput) {
      const tail = readTail(fd, path);
      if (tail) {
        seed = { ms: tail.ms, ids: tail.ids };
        to = { text: tail.text, ms: tail.ms };
        // `from` must stay before `to`: the range still to read is at least that last instant.
        if (to.ms <= from.ms) to = { text: new Date(from.ms + 1).toISOString(), ms: from.ms + 1 };
      }
    }
    const out = fd;
    let position = fstatSync(out).size;
    let done = false;
    return {
      range: { from, to },
      seed,
      resumed: hasOutput,
      write(text) {
        position += writeAll(out, text, position);
      },
      finish() {
        if (done) return;
        done = true;
        fsyncSync(out);
        closeSync(out);
        unlinkSync(statePath);
        release();
      },
      close() {
        if (done) return;
        done = true;
        closeSync(out);
        release();
      },
    };
  } catch (err) {
    if (fd !== undefined) closeSync(fd);
    release();
    throw err;
  }
}

function readState(statePath: string, path: string): ExportState {
  try {
    const s = JSON.parse(readFileSync(statePath, 'utf8')) as ExportState;
    if (
      s.version === 1 &&
      typeof s.key === 'string' &&
      !Number.isNaN(Date.parse(s.from)) &&
      !Number.isNaN(Date.parse(s.to))
    )
      return s;
  } catch {
    // Refused below.
  }
  throw new ConflictError(`${statePath} is not hubctl's record of an export to ${path}`, {
    hint: `Remove ${path} and ${statePath} to start over.`,
  });
}

function createExclusive(path: string, text: string): void {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (err) {
    throw new UsageError(`cannot create ${path}: ${(err as Error).message}`, { cause: err });
  }
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Cuts a partial last line off, then reads lines backwards: the last event's time, and the ids of
 * every event at that same millisecond. Undefined when nothing complete was written.
 */
function readTail(fd: number, path: string): { text: string; ms: number; ids: string[] } | undefined {
  const size = fstatSync(fd).size;
  const buf = Buffer.alloc(TAIL_CHUNK);
  // 1. The end of the last complete line.
  let end = size;
  let keep = 0;
  while (end > 0) {
    const start = Math.max(0, end - TAIL_CHUNK);
    const n = readSync(fd, buf, 0, end - start, start);
    const nl = buf.subarray(0, n).lastIndexOf(10);
    if (nl !== -1) {
      keep = start + nl + 1;
      break;
    }
    end = start;
  }
  if (keep !== size) ftruncateSync(fd, keep);
  // 2. Lines backwards from there, until one is older than the last.
  let first: { text: string; ms: number } | undefined;
  const ids: string[] = [];
  let pos = keep;
  let rest = Buffer.alloc(0);
  while (pos > 0) {
    const start = Math.max(0, pos - TAIL_CHUNK);
    const n = readSync(fd, buf, 0, pos - start, start);
    const data = Buffer.concat([buf.subarray(0, n), rest]);
    pos = start;
    // Every line in `data` ends with a newline; the first may have begun before `start`.
    let stop = data.length - 1;
    for (;;) {
      const nl = stop === 0 ? -1 : data.lastIndexOf(10, stop - 1);
      if (nl === -1 && pos > 0) {
        rest = Buffer.from(data.subarray(0, stop + 1));
        if (rest.length > 16 * 1024 * 1024)
          throw new ConflictError(`${path} holds a line longer than 16 MiB`);
        break;
      }
      const line = data.toString('utf8', nl + 1, stop);
      if (line !== '' && judge(line) === 'stop') return first && { ...first, ids };
      if (nl === -1) break;
      stop = nl;
    }
  }
  return first && { ...first, ids };

  function judge(line: string): 'more' | 'stop' {
    let e: { created_at?: unknown; audit_event_id?: unknown };
    try {
      e = JSON.parse(line) as typeof e;
    } catch {
      throw new ConflictError(`${path} holds a line that is not JSON: it is not an export hubctl can resume`);
    }
    const text = typeof e.created_at === 'string' ? e.created_at : undefined;
    const ms = text === undefined ? Number.NaN : Date.parse(text);
    if (Number.isNaN(ms))
      throw new ConflictError(
        `${path} holds an event without a readable created_at: hubctl cannot resume it`,
      );
    if (!first) first = { text: text as string, ms };
    if (ms !== first.ms) return 'stop';
    if (typeof e.audit_event_id === 'string') ids.push(e.audit_event_id);
    if (ids.length > MAX_EDGE_IDS)
      throw new ConflictError(`${path} ends in more than ${MAX_EDGE_IDS} events at one instant`);
    return 'more';
  }
}

/**
 * A new file written whole (local exports: not resumable, they read no network): a temporary
 * sibling created exclusively, linked to its name only when complete, which fails rather than
 * replace a file that appeared meanwhile.
 */
export function openNewFile(path: string): { write(text: string): void; commit(): void; abort(): void } {
  if (existsSync(path))
    throw new ConflictError(`${path} already exists: hubctl neither overwrites nor appends to it`, {
      hint: 'Choose another file with -o, or remove it first.',
    });
  const tmp = `${path}.tmp-${randomBytes(6).toString('hex')}`;
  const fd = openSync(tmp, 'wx', 0o600);
  let open = true;
  const drop = () => {
    if (open) closeSync(fd);
    open = false;
    try {
      unlinkSync(tmp);
    } catch {
      // Already gone.
    }
  };
  return {
    write(text) {
      writeAll(fd, text, null);
    },
    commit() {
      fsyncSync(fd);
      closeSync(fd);
      open = false;
      try {
        linkSync(tmp, path);
      } catch (err) {
        drop();
        if ((err as NodeJS.ErrnoException).code === 'EEXIST')
          throw new ConflictError(`${path} appeared while exporting: hubctl did not replace it`);
        throw err;
      }
      drop();
    },
    abort: drop,
  };
}

/** Writes text whole (a file takes it in one write; a short write goes on from where it stopped). */
function writeAll(fd: number, text: string | Buffer, position: number | null): number {
  const size = typeof text === 'string' ? Buffer.byteLength(text) : text.length;
  const n =
    typeof text === 'string' ? writeSync(fd, text, position, 'utf8') : writeSync(fd, text, 0, size, position);
  if (n === size) return size;
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  let off = n;
  while (off < size) off += writeSync(fd, bytes, off, size - off, position === null ? null : position + off);
  return size;
}
