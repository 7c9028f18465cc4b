// A page of the Audit Logs API read straight from its bytes, for `audit export`: where each event's
// text begins and ends in the body (so it is written exactly as the API gave it, without parsing it
// into objects and serializing it again), its `audit_event_id` and `created_at`, and the
// `next_page_token`. PURE: no IO.
//
// It vouches only for what it fully checks, and says so by returning a page: a body that is valid
// UTF-8 and strict JSON (RFC 8259), an object whose `events` is an array of at most `maxEvents`
// objects and whose `next_page_token` is a string, each key once, and events written compactly (no
// whitespace inside an event, so each is one NDJSON line as it stands). Anything else, valid or
// not, gives undefined: the caller then reads the body with JSON.parse and its own checks, which
// decide (an error, or events serialized again). What it returns agrees with JSON.parse: each span
// parses to the same value as `JSON.parse(body).events[i]`, and the fields are those JSON.parse
// gives (the last of a repeated key, escapes decoded); a property test holds it to that.
import { isAscii, isUtf8 } from 'node:buffer';

export interface ScannedPage {
  /** Byte offsets in the body: event i is `body[spans[2i], spans[2i+1])`. */
  spans: number[];
  /** Each event's `audit_event_id` and `created_at` when they are strings, else undefined. */
  ids: (string | undefined)[];
  times: (string | undefined)[];
  next: string;
}

/** Nesting inside an event past this is left to JSON.parse. */
const MAX_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

const EVENTS = 'events';
const NEXT = 'next_page_token';
const ID = 'audit_event_id';
const CREATED = 'created_at';

/** Thrown inside the scanner: not a page it vouches for. */
const REFUSE = Symbol('refuse');

/** The events of a page body, or undefined when the body is to be read with JSON.parse instead. */
export function scanAuditPage(body: Buffer, maxEvents: number): ScannedPage | undefined {
  const ascii = isAscii(body);
  if (!ascii && !isUtf8(body)) return undefined;
  // One character per byte: offsets in it are offsets in the body. Bytes past 0x7f are only ever
  // inside strings (anywhere else the grammar refuses them), decoded as UTF-8 when a field is read.
  const s = body.toString('latin1');
  let end = s.length;
  while (end > 0 && isSpace(s.charCodeAt(end - 1))) end--;
  if (controlBefore(body, end)) return undefined;
  try {
    return new Scanner(s, body, end, maxEvents, ascii).page();
  } catch (err) {
    if (err === REFUSE) return undefined;
    throw err;
  }
}

class Scanner {
  private i = 0;
  /** Where the next backslash is: a string ending before it holds no escape. */
  private backslash: number;

  constructor(
    private readonly s: string,
    private readonly body: Buffer,
    private readonly end: number,
    private readonly maxEvents: number,
    /** No byte past 0x7f: the page's text is its UTF-8 decoding too. */
    private readonly ascii: boolean,
  ) {
    this.backslash = this.nextBackslash(0);
  }

  page(): ScannedPage {
    const s = this.s;
    let spans: number[] | undefined;
    let ids: (string | undefined)[] = [];
    let times: (string | undefined)[] = [];
    let next: string | undefined;
    this.spaces();
    this.expect(OPEN_OBJECT);
    this.spaces();
    if (s.charCodeAt(this.i) !== CLOSE_OBJECT) {
      for (;;) {
        this.spaces();
        const k0 = this.i + 1;
        const escaped = this.string();
        const k1 = this.i - 1;
        this.spaces();
        this.expect(COLON);
        this.spaces();
        const key = this.key(k0, k1, escaped);
        if (key === EVENTS) {
          if (spans) throw REFUSE;
          spans = [];
          ids = objectArray();
          times = objectArray();
          this.events(spans, ids, times);
        } else if (key === NEXT) {
          if (next !== undefined || s.charCodeAt(this.i) !== QUOTE) throw REFUSE;
          const s0 = this.i + 1;
          const e = this.string();
          // Decoded from the body: the cursor outlives the page.
          next = this.text(s0, this.i - 1, e, true);
        } else {
          this.value(0, true);
        }
        this.spaces();
        if (s.charCodeAt(this.i) === COMMA) {
          this.i++;
          continue;
        }
        this.expect(CLOSE_OBJECT);
        break;
      }
    } else this.i++;
    if (this.i !== this.end || !spans || next === undefined) throw REFUSE;
    return { spans, ids, times, next };
  }

  private events(spans: number[], ids: (string | undefined)[], times: (string | undefined)[]): void {
    const s = this.s;
    this.expect(OPEN_ARRAY);
    this.spaces();
    if (s.charCodeAt(this.i) === CLOSE_ARRAY) {
      this.i++;
      return;
    }
    for (;;) {
      this.spaces();
      if (s.charCodeAt(this.i) !== OPEN_OBJECT || ids.length >= this.maxEvents) throw REFUSE;
      const start = this.i;
      this.event(ids, times);
      spans.push(start, this.i);
      this.spaces();
      if (s.charCodeAt(this.i) === COMMA) {
        this.i++;
        continue;
      }
      this.expect(CLOSE_ARRAY);
      return;
    }
  }

  /** One event, compact: its top-level `audit_event_id` and `created_at` (the last of each). */
  private event(ids: (string | undefined)[], times: (string | undefined)[]): void {
    const s = this.s;
    let id: string | undefined;
    let time: string | undefined;
    this.i++;
    if (s.charCodeAt(this.i) === CLOSE_OBJECT) {
      this.i++;
    } else {
      for (;;) {
        const k0 = this.i + 1;
        const escaped = this.string();
        const k1 = this.i - 1;
        this.expect(COLON);
        const key = this.key(k0, k1, escaped);
        const isId = key === ID;
        if (isId || key === CREATED) {
          let v: string | undefined;
          if (s.charCodeAt(this.i) === QUOTE) {
            const s0 = this.i + 1;
            const e = this.string();
            v = this.text(s0, this.i - 1, e);
          } else this.value(1, false);
          if (isId) id = v;
          else time = v;
        } else this.value(1, false);
        if (s.charCodeAt(this.i) === COMMA) {
          this.i++;
          continue;
        }
        this.expect(CLOSE_OBJECT);
        break;
      }
    }
    ids.push(id);
    times.push(time);
  }

  /** Any JSON value; spaces only where `spaced` (outside events). */
  private value(depth: number, spaced: boolean): void {
    const s = this.s;
    const c = s.charCodeAt(this.i);
    if (c === QUOTE) {
      this.string();
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (depth >= MAX_DEPTH) throw REFUSE;
      const object = c === OPEN_OBJECT;
      const close = object ? CLOSE_OBJECT : CLOSE_ARRAY;
      this.i++;
      if (spaced) this.spaces();
      if (s.charCodeAt(this.i) === close) {
        this.i++;
        return;
      }
      for (;;) {
        if (spaced) this.spaces();
        if (object) {
          this.string();
          if (spaced) this.spaces();
          this.expect(COLON);
          if (spaced) this.spaces();
        }
        this.value(depth + 1, spaced);
        if (spaced) this.spaces();
        if (s.charCodeAt(this.i) === COMMA) {
          this.i++;
          continue;
        }
        this.expect(close);
        return;
      }
    } else if (c === 0x74) this.word('true');
    else if (c === 0x66) this.word('false');
    else if (c === 0x6e) this.word('null');
    else this.number();
  }

  private word(w: string): void {
    if (!this.s.startsWith(w, this.i)) throw REFUSE;
    this.i += w.length;
  }

  /** -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? */
  private number(): void {
    const s = this.s;
    let i = this.i;
    if (s.charCodeAt(i) === 0x2d) i++;
    const first = s.charCodeAt(i);
    if (first === 0x30) i++;
    else if (first >= 0x31 && first <= 0x39) {
      i++;
      while (isDigit(s.charCodeAt(i))) i++;
    } else throw REFUSE;
    if (s.charCodeAt(i) === 0x2e) {
      i++;
      if (!isDigit(s.charCodeAt(i))) throw REFUSE;
      while (isDigit(s.charCodeAt(i))) i++;
    }
    const e = s.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i++;
      const sign = s.charCodeAt(i);
      if (sign === 0x2b || sign === 0x2d) i++;
      if (!isDigit(s.charCodeAt(i))) throw REFUSE;
      while (isDigit(s.charCodeAt(i))) i++;
    }
    this.i = i;
  }

  /**
   * A string from its opening quote to just past its closing one; true when it holds an escape.
   * No control character is left in the page (checked first), so only escapes need a look.
   */
  private string(): boolean {
    const s = this.s;
    if (s.charCodeAt(this.i) !== QUOTE) throw REFUSE;
    let i = this.i + 1;
    let close = s.indexOf('"', i);
    if (close === -1 || close >= this.end) throw REFUSE;
    if (this.backslash > close) {
      this.i = close + 1;
      return false;
    }
    // Escapes: checked one by one up to the quote that is not escaped.
    for (;;) {
      const at = s.indexOf('\\', i);
      if (at === -1 || at > close) break;
      const e = s.charCodeAt(at + 1);
      if (e === 0x75) {
        if (!isHex(s.charCodeAt(at + 2)) || !isHex(s.charCodeAt(at + 3))) throw REFUSE;
        if (!isHex(s.charCodeAt(at + 4)) || !isHex(s.charCodeAt(at + 5))) throw REFUSE;
        i = at + 6;
      } else if (
        e === QUOTE ||
        e === BACKSLASH ||
        e === 0x2f ||
        e === 0x62 ||
        e === 0x66 ||
        e === 0x6e ||
        e === 0x72 ||
        e === 0x74
      ) {
        i = at + 2;
      } else throw REFUSE;
      // The quote found was escaped, or an escape ran past it: look again from here.
      if (i > close) {
        close = s.indexOf('"', i);
        if (close === -1 || close >= this.end) throw REFUSE;
      }
    }
    this.i = close + 1;
    this.backslash = this.nextBackslash(close + 1);
    return true;
  }

  /** Where the next backslash is from `from` (the text's length when there is none). */
  private nextBackslash(from: number): number {
    const at = this.s.indexOf('\\', from);
    return at === -1 ? this.s.length : at;
  }

  /** The string between s0 and s1 (quotes excluded) as JSON.parse gives it. */
  private text(s0: number, s1: number, escaped: boolean, decode = false): string {
    // An ASCII page's text is sliced (no call into the buffer's decoder, which cost ~0.2 µs an
    // event for the ids and times): the slice shares the page's text, so whoever keeps one past
    // the page keeps a copy of its own (api/audit.ts, EdgeDedupe). Any other page is decoded.
    const raw = this.ascii && !decode ? this.s.slice(s0, s1) : this.body.toString('utf8', s0, s1);
    return escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
  }

  /** A key as JSON.parse gives it when it is one of those read; else undefined. */
  private key(k0: number, k1: number, escaped: boolean): string | undefined {
    if (escaped) return this.text(k0, k1, true);
    const n = k1 - k0;
    const name = n === 14 ? ID : n === 10 ? CREATED : n === 6 ? EVENTS : n === 15 ? NEXT : undefined;
    return name !== undefined && this.s.startsWith(name, k0) ? name : undefined;
  }

  private spaces(): void {
    const s = this.s;
    let i = this.i;
    while (s.charCodeAt(i) === 0x20) i++;
    this.i = i;
  }

  private expect(c: number): void {
    if (this.s.charCodeAt(this.i) !== c) throw REFUSE;
    this.i++;
  }
}

/**
 * Whether a raw control character stands before `end`: none may inside a compact page, only
 * whitespace past its content. One memchr per control byte is faster than a regular expression.
 */
function controlBefore(body: Buffer, end: number): boolean {
  for (let c = 0; c < 0x20; c++) {
    const at = body.indexOf(c);
    if (at !== -1 && at < end) return true;
  }
  return false;
}

/**
 * An empty array already of the kind that holds strings: the pages' id and time arrays begin as
 * one (`[]` begins as small integers, and its first string changes its kind), so that `event`,
 * compiled with one kind in its feedback, is not thrown away and compiled again at another page's
 * first push (measured: `--trace-deopt` showed it once an export, ~20 ms of compiling).
 */
function objectArray(): (string | undefined)[] {
  const a: (string | undefined)[] = [undefined];
  a.length = 0;
  return a;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}
