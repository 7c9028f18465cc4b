// `policy eval --batch`: one request a line in (`{"action":…,"destination":…}` or
// `action destination`), one JSON decision a line out. A malformed line becomes an error record and
// the batch goes on. Pure: the command does the reading and writing.
import { HubctlError, ValidationError } from '../errors.js';
import {
  type CompiledPolicySet,
  decide,
  decideHostChars,
  decisionJson,
  type EvalResult,
  type EvaluateOptions,
  evaluate,
  mixedResult,
  NOT_PLAIN,
} from './engine.js';
import { hostChars } from './network-destination.js';

export interface BatchRequest {
  action: string;
  destination: string;
}

const HEAD = '{"action":"';
const MIDDLE = '","destination":"';

/**
 * The compact form `{"action":"…","destination":"…"}` (what JSON.stringify and `jq -c` write),
 * read without building a parse tree; null when the line is anything else (escapes included),
 * which then goes through JSON.parse.
 */
function parseCompact(s: string): BatchRequest | null {
  if (!s.startsWith(HEAD)) return null;
  const a0 = HEAD.length;
  const a1 = s.indexOf('"', a0);
  if (a1 < 0 || !s.startsWith(MIDDLE, a1)) return null;
  const d0 = a1 + MIDDLE.length;
  const d1 = s.indexOf('"', d0);
  if (d1 !== s.length - 2 || s.charCodeAt(s.length - 1) !== 125) return null;
  for (let i = a0; i < d1; i++) {
    const c = s.charCodeAt(i);
    if (c === 92 || c < 32) return null;
  }
  return { action: s.slice(a0, a1), destination: s.slice(d0, d1) };
}

/** A request line → request; null for a blank line or a `#` comment. Throws ValidationError. */
export function parseRequestLine(line: string): BatchRequest | null {
  let s = line;
  if (s.length > 0 && (s.charCodeAt(s.length - 1) === 13 || s.charCodeAt(0) <= 32)) s = s.trim();
  if (s === '' || s.charCodeAt(0) === 35) return null;
  if (s.charCodeAt(0) === 123) {
    const fast = parseCompact(s);
    if (fast !== null) return fast;
    let v: unknown;
    try {
      v = JSON.parse(s);
    } catch (err) {
      throw new ValidationError(`not valid JSON: ${(err as Error).message}`);
    }
    const o = v as { action?: unknown; destination?: unknown };
    if (typeof o.action !== 'string' || typeof o.destination !== 'string') {
      throw new ValidationError('a JSON request needs string fields "action" and "destination"');
    }
    return { action: o.action, destination: o.destination };
  }
  const sp = s.search(/\s/);
  if (sp < 0) throw new ValidationError('a request is `action destination` or {"action":…,"destination":…}');
  const action = s.slice(0, sp);
  const destination = s.slice(sp + 1).trim();
  if (/\s/.test(destination)) throw new ValidationError('a request is `action destination`: too many words');
  return { action, destination };
}

/** JSON string text; plain strings (no quote, backslash or control character) without JSON.stringify. */
function quote(v: string): string {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === 34 || c === 92 || c < 32 || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(v);
  }
  return `"${v}"`;
}

function actionHead(action: string): string {
  switch (action) {
    case 'connect:tcp':
      return '{"action":"connect:tcp","destination":';
    case 'connect:udp':
      return '{"action":"connect:udp","destination":';
    case 'read':
      return '{"action":"read","destination":';
    case 'write':
      return '{"action":"write","destination":';
    default:
      return `{"action":${quote(action)},"destination":`;
  }
}

/** The output line (no newline) of a decided request. */
export function formatDecisionLine(req: BatchRequest, r: EvalResult): string {
  return `${actionHead(req.action)}${quote(req.destination)},${decisionJson(r)}}`;
}

export function formatErrorLine(lineNo: number, input: string, err: unknown): string {
  const code = err instanceof HubctlError ? err.code : 'ERROR';
  const message = err instanceof Error ? err.message : String(err);
  return JSON.stringify({ line: lineNo, input, error: { code, message } });
}

export interface BatchLineResult {
  text: string;
  denied: boolean;
  error: boolean;
}

/** Evaluates one input line; null for blank and comment lines. Never throws for bad input. */
export function evaluateLine(
  set: CompiledPolicySet,
  line: string,
  lineNo: number,
  opts?: EvaluateOptions,
): BatchLineResult | null {
  let req: BatchRequest | null;
  try {
    req = parseRequestLine(line);
    if (req === null) return null;
    const r = evaluate(set, req.action, req.destination, opts);
    return { text: formatDecisionLine(req, r), denied: r.decision === 'deny', error: false };
  } catch (err) {
    if (!(err instanceof HubctlError)) throw err;
    const input = line.endsWith('\r') ? line.slice(0, -1) : line;
    return { text: formatErrorLine(lineNo, input, err), denied: false, error: true };
  }
}

export interface BatchCounts {
  total: number;
  denied: number;
  errors: number;
}

const utf8Out = new TextEncoder();
/** Lines that leave the fast path are decoded alone; a BOM is dropped only at the start of input. */
const utf8In = new TextDecoder('utf-8', { ignoreBOM: true });

const ACTIONS = ['connect:tcp', 'connect:udp', 'read', 'write'] as const;
const HEAD_BYTES = utf8Out.encode(HEAD);
const MIDDLE_BYTES = utf8Out.encode(MIDDLE);

/** The known action spelled by b[start, end), as an index into ACTIONS, or -1. */
function actionAt(b: Uint8Array, start: number, end: number): number {
  const len = end - start;
  if (len === 11) {
    // connect:tcp / connect:udp
    if (
      b[start] !== 99 ||
      b[start + 1] !== 111 ||
      b[start + 2] !== 110 ||
      b[start + 3] !== 110 ||
      b[start + 4] !== 101 ||
      b[start + 5] !== 99 ||
      b[start + 6] !== 116 ||
      b[start + 7] !== 58 ||
      b[start + 9] !== 99 ||
      b[start + 10] !== 112
    )
      return -1;
    const c = b[start + 8];
    return c === 116 ? 0 : c === 117 ? 1 : -1;
  }
  if (len === 4)
    return b[start] === 114 && b[start + 1] === 101 && b[start + 2] === 97 && b[start + 3] === 100 ? 2 : -1;
  if (len === 5)
    return b[start] === 119 &&
      b[start + 1] === 114 &&
      b[start + 2] === 105 &&
      b[start + 3] === 116 &&
      b[start + 4] === 101
      ? 3
      : -1;
  return -1;
}

type Latin1 = { latin1Slice?: (start: number, end: number) => string };

/** b[start, end), all ASCII, as a string: Buffer's latin1Slice when there is one. */
function asciiString(b: Uint8Array, start: number, end: number): string {
  const slice = (b as Latin1).latin1Slice;
  if (slice !== undefined) return slice.call(b, start, end);
  // ASCII reads the same in UTF-8
  return utf8In.decode(b.subarray(start, end));
}

/** Where an output slab starts; a slab is handed out in pieces that are never written again. */
const SLAB = 1 << 20;

/**
 * Streams a batch: feed text as it arrives (any chunking), get back the output for the complete
 * lines (one JSON a line, newline-terminated); `end()` flushes a last line without newline.
 */
export class BatchProcessor {
  readonly counts: BatchCounts = { total: 0, denied: 0, errors: 0 };
  private rest = '';
  private lineNo = 0;
  /**
   * `readOnly` (for the bench's parse-only figure): read every request exactly as the batch does,
   * then stop: no evaluation, no output; `counts.total` counts the requests read.
   */
  constructor(
    private readonly set: CompiledPolicySet,
    private readonly opts?: EvaluateOptions,
    private readonly readOnly = false,
  ) {}

  /** Bytes of an incomplete last line, waiting for the next chunk (joined once, when it ends). */
  private parts: Uint8Array[] = [];
  private slab = new Uint8Array(SLAB);
  /** slab[flushed, pos) is output not yet handed out. */
  private flushed = 0;
  private pos = 0;
  private started = false;
  /** The chunk being scanned, as a plain Uint8Array. */
  private view: Uint8Array = new Uint8Array(0);

  /**
   * The byte form of `push`: feed the input as it arrives (any chunking), get back the UTF-8 output
   * for the complete lines, or null when there is none yet. The returned bytes are never written
   * again, so a stream may hold on to them. Same output, byte for byte, as `push` on decoded text:
   * compact `{"action":…,"destination":…}` lines of plain ASCII are read in place without decoding,
   * and their output is assembled from precomputed bytes; any other line goes through the text path.
   */
  pushBytes(input: Uint8Array): Uint8Array | null {
    let chunk = input;
    let start = 0;
    if (!this.started) {
      // TextDecoder drops a BOM at the start of a stream; so does this path
      if (this.parts.length > 0) chunk = this.joinParts(chunk, chunk.length);
      if (chunk.length < 3) {
        if (chunk.length > 0) this.parts.push(chunk.slice());
        return null;
      }
      this.started = true;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) start = 3;
    } else if (this.parts.length > 0) {
      const nl = chunk.indexOf(10);
      if (nl < 0) {
        this.parts.push(chunk.slice());
        return null;
      }
      const line = this.joinParts(chunk, nl + 1);
      this.scan(line, 0, line.length);
      start = nl + 1;
    }
    const done = this.scan(chunk, start, chunk.length);
    if (done < chunk.length) this.parts.push(chunk.slice(done));
    return this.take();
  }

  /** The output of a last line without newline, or null. */
  endBytes(): Uint8Array | null {
    if (this.parts.length > 0) {
      const rest = this.joinParts(new Uint8Array(0), 0);
      let s = 0;
      if (!this.started && rest.length >= 3 && rest[0] === 0xef && rest[1] === 0xbb && rest[2] === 0xbf)
        s = 3;
      this.started = true;
      s = this.scan(rest, s, rest.length);
      if (s < rest.length) this.line(rest, s, rest.length);
    }
    return this.take();
  }

  /** The waiting parts and b[0, bEnd) as one array; no parts wait afterwards. */
  private joinParts(b: Uint8Array, bEnd: number): Uint8Array {
    let n = bEnd;
    for (const p of this.parts) n += p.length;
    const out = new Uint8Array(n);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.length;
    }
    out.set(b.subarray(0, bEnd), at);
    this.parts = [];
    return out;
  }

  private take(): Uint8Array | null {
    if (this.pos === this.flushed) return null;
    const out = this.slab.subarray(this.flushed, this.pos);
    this.flushed = this.pos;
    return out;
  }

  /** Room for `n` more bytes of output (the slab's unflushed part moves to a new slab if needed). */
  private room(n: number): Uint8Array {
    if (this.pos + n <= this.slab.length) return this.slab;
    const kept = this.pos - this.flushed;
    const next = new Uint8Array(Math.max(SLAB, 2 * (kept + n)));
    next.set(this.slab.subarray(this.flushed, this.pos));
    this.slab = next;
    this.flushed = 0;
    this.pos = kept;
    return next;
  }

  /**
   * Reads the complete lines of b[from, end); returns where the first incomplete line starts (end
   * when every line was complete).
   */
  private scan(b: Uint8Array, from: number, end: number): number {
    // A Buffer's subarray (one per line, to copy its head) goes through Node's Buffer constructor.
    this.view = b.constructor === Uint8Array ? b : new Uint8Array(b.buffer, b.byteOffset, b.length);
    let s = from;
    while (s < end) {
      const next = this.fast(b, s, end);
      if (next >= 0) {
        s = next;
        continue;
      }
      let nl = s;
      while (nl < end && b[nl] !== 10) nl++;
      if (nl === end) return s;
      this.line(b, s, nl);
      s = nl + 1;
    }
    return end;
  }

  /**
   * The fast path for one line at b[s…]: the compact form with ASCII fields free of escapes, a known
   * action and a destination the engine takes. Returns where the next line starts, or -1 when the
   * line must take the text path (or is not complete in this chunk).
   */
  private fast(b: Uint8Array, s: number, end: number): number {
    if (this.opts !== undefined && this.opts.explain === true) return -1;
    const head = HEAD_BYTES;
    if (end - s < head.length + MIDDLE_BYTES.length + 4) return -1;
    for (let k = 0; k < head.length; k++) if (b[s + k] !== head[k]) return -1;
    const a0 = s + head.length;
    let i = a0;
    let c = 0;
    for (; i < end; i++) {
      c = b[i]!;
      if (c === 34 || c === 92 || c < 32 || c > 126) break;
    }
    if (c !== 34 || i >= end) return -1;
    const action = actionAt(b, a0, i);
    if (action < 0) return -1;
    const middle = MIDDLE_BYTES;
    if (i + middle.length > end) return -1;
    for (let k = 0; k < middle.length; k++) if (b[i + k] !== middle[k]) return -1;
    const d0 = i + middle.length;
    // the destination goes to hostChars as it is scanned (the engine reads a hostname there)
    const chars = hostChars;
    for (i = d0; i < end; i++) {
      c = b[i]!;
      if (c === 34 || c === 92 || c < 32 || c > 126) break;
      chars[(i - d0) & 255] = c;
    }
    const d1 = i;
    // `"}` then `\n` or `\r\n`
    if (c !== 34 || d1 + 2 >= end || b[d1 + 1] !== 125) return -1;
    let nl = d1 + 2;
    if (b[nl] === 13) nl++;
    if (nl >= end || b[nl] !== 10) return -1;
    if (this.readOnly) {
      const destination = asciiString(b, d0, d1);
      this.lineNo++;
      this.counts.total++;
      if (destination.length === 0) this.counts.errors++;
      return nl + 1;
    }
    // A plain hostname is decided from the input bytes themselves; anything else as a string.
    const set = this.set;
    let code = NOT_PLAIN;
    // (a destination longer than hostChars wrapped around in it, and is no hostname: the engine
    // declines any longer than 254)
    if (action < 2) code = decideHostChars(set, action === 1, d1 - d0);
    if (code === NOT_PLAIN) {
      try {
        code = decide(set, ACTIONS[action]!, asciiString(b, d0, d1));
      } catch {
        // the text path writes the error record
        return -1;
      }
    }
    this.lineNo++;
    const counts = this.counts;
    counts.total++;
    // The line's head is the input's own `{"action":"…","destination":"…"`, byte for byte.
    const headLen = d1 + 1 - s;
    if (code >= 0) {
      if (set.denies[code] === 1) counts.denied++;
      const t0 = set.tailAt[code]!;
      const t1 = set.tailAt[code + 1]!;
      const out = this.room(headLen + t1 - t0);
      const p = this.pos;
      out.set(this.view.subarray(s, d1 + 1), p);
      out.set(set.tails.subarray(t0, t1), p + headLen);
      this.pos = p + headLen + t1 - t0;
      return nl + 1;
    }
    const r = mixedResult(set);
    if (r.decision === 'deny') counts.denied++;
    const json = `,${decisionJson(r)}}\n`;
    const out = this.room(headLen + json.length * 3);
    const p = this.pos;
    out.set(this.view.subarray(s, d1 + 1), p);
    this.pos = p + headLen + utf8Out.encodeInto(json, out.subarray(p + headLen)).written;
    return nl + 1;
  }

  /** The text path for the line b[s, e) (its newline excluded). */
  private line(b: Uint8Array, s: number, e: number): void {
    if (this.readOnly) {
      this.lineNo++;
      try {
        if (parseRequestLine(utf8In.decode(b.subarray(s, e))) !== null) this.counts.total++;
      } catch {
        this.counts.total++;
        this.counts.errors++;
      }
      return;
    }
    const r = evaluateLine(this.set, utf8In.decode(b.subarray(s, e)), ++this.lineNo, this.opts);
    if (r === null) return;
    this.counts.total++;
    if (r.error) this.counts.errors++;
    else if (r.denied) this.counts.denied++;
    const out = this.room(r.text.length * 3 + 1);
    const p = this.pos + utf8Out.encodeInto(r.text, out.subarray(this.pos)).written;
    out[p] = 10;
    this.pos = p + 1;
  }

  push(text: string): string {
    const all = this.rest === '' ? text : this.rest + text;
    const lastNl = all.lastIndexOf('\n');
    if (lastNl < 0) {
      this.rest = all;
      return '';
    }
    this.rest = all.slice(lastNl + 1);
    return this.lines(all, lastNl);
  }

  end(): string {
    const rest = this.rest;
    this.rest = '';
    return rest === '' ? '' : this.lines(rest, rest.length);
  }

  private lines(text: string, end: number): string {
    const out: string[] = [];
    let start = 0;
    while (start <= end && start < text.length) {
      let nl = text.indexOf('\n', start);
      if (nl < 0 || nl > end) nl = end;
      const r = evaluateLine(this.set, text.slice(start, nl), ++this.lineNo, this.opts);
      start = nl + 1;
      if (r === null) continue;
      this.counts.total++;
      if (r.error) this.counts.errors++;
      else if (r.denied) this.counts.denied++;
      out.push(r.text);
    }
    return out.length === 0 ? '' : `${out.join('\n')}\n`;
  }
}
