// The fields `policy replay` and `audit summary` need from one audit event line, read in place without JSON.parse, for
// lines in the simple form audit logs are written in. PURE: no IO.
//
// `EventFieldReader.read` gives what `readAuditRecord(JSON.parse(line))` gives for those fields
// (category, action and event type, decision, user, agent, time, resource, session, enforcement mode,
// network_egress.protocol and http_request's method, host, port and path, in either shape, audit-and-mcp.md §1–2), or
// undefined: the caller then takes the full path. It reads the line's bytes, which must be ASCII (one
// byte a character: a field is then the text between the same offsets), in one pass in JavaScript
// (a byte of a Uint8Array is read several times quicker than a character of a string, charCodeAt);
// strings four bytes at a time (a DataView's word, tested at once for a quote, a backslash and a
// control character), and the names of the fields read as words of four.
// It answers only when it is sure, and is undefined for:
// - a control character in a string, an escape JSON does not have, or any escape in a key of an
//   object whose fields are read (the top level, payload, network_egress, http_request: an escaped
//   key may spell a field's name);
// - anything that is not valid JSON, or not one object (leading whitespace included);
// - a field it reads given twice in one object (JSON.parse keeps the last: the full path decides);
// - a field it reads of another type than the usual one (a string; an object for `payload`,
//   `network_egress` and `http_request`; so a `port` given as a number too), or nesting deeper
//   than MAX_DEPTH.
// Everything else (other fields, of any type, at any depth) is checked against the JSON grammar and
// passed over. Without escapes a string's value is its text between the quotes, as JSON.parse reads it;
// a field read whose string holds an escape is that string's literal (quotes included) given to
// JSON.parse, which gives what it gives for the same literal in the whole line.
import type { AuditRecord } from './record.js';

/** The fields replay reads from a record; an AuditRecord has them all. */
export type ReplayEvent = Pick<
  AuditRecord,
  | 'category'
  | 'actionType'
  | 'eventType'
  | 'decision'
  | 'user'
  | 'agent'
  | 'time'
  | 'resource'
  | 'networkEgress'
  | 'httpRequest'
>;

/**
 * The fields the reader gives: replay's, and the session, mode and time's milliseconds `audit
 * summary` filters on (all its filters' fields: query.ts's MatchedFields).
 */
export type EventFields = ReplayEvent & Pick<AuditRecord, 'session' | 'mode' | 'timeMs'>;

/**
 * The values whose bytes a caller may read in place (EventFieldReader.spanField): the string fields
 * of an event. method, host, port and path follow each other (an HTTP request's, in this order).
 */
export const SPAN = {
  resource: 0,
  user: 1,
  agent: 2,
  time: 3,
  protocol: 4,
  method: 5,
  host: 6,
  port: 7,
  path: 8,
} as const;

const EMPTY = new Uint8Array(0);

/** Objects nested deeper than this are left to JSON.parse. */
const MAX_DEPTH = 64;

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const SPACE = 0x20;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const BACKSLASH = 0x5c;

// The fields read: a string's start and end are slots 2f and 2f+1; an object's are its braces.
// Where the API shape nests them under `payload`, a field read from `payload` is the top-level one's
// number + IN_PAYLOAD.
const CATEGORY = 0;
const ACTION_TYPE = 1;
const EVENT_TYPE = 2;
const DECISION = 3;
const USERNAME = 4;
const USER_EMAIL = 5;
const CREATED_AT = 6;
const TIMESTAMP = 7;
const RESOURCE = 8;
const AGENT = 9;
const PROTOCOL = 10;
const METHOD = 11;
const HOST = 12;
const PORT = 13;
const PATH = 14;
const EGRESS = 15;
const HTTP = 16;
const IN_PAYLOAD = 9; // RESOURCE … HTTP under payload: 17 … 25
const PAYLOAD = 26;
const SESSION = 27;
const MODE = 28;
const FIELDS = 29;

// The objects whose fields are read; an odd one is under payload (its slots are + IN_PAYLOAD).
const TOP = 0;
const PAYLOAD_OBJECT = 1;
const EGRESS_OBJECT = 2;
const HTTP_OBJECT = 4;

/** Reads the fields of audit event lines; one reader, reused line after line. */
export class EventFieldReader {
  /** Start and end of each field's value (a string's characters, an object's braces), when read. */
  private readonly at = new Int32Array(FIELDS * 2);
  /** The fields read from the line (bit f: field f; FIELDS ≤ 31). */
  private present = 0;
  private text = '';
  /** Fields read whose strings held an escape (bit f: field f), and their values decoded. */
  private escaped = 0;
  private readonly decoded: (string | undefined)[] = new Array(FIELDS).fill(undefined);
  private readonly event = new LineEvent(this);

  /**
   * The fields of the line text[start, end) (without its line end), or undefined when the line is not
   * in the simple form read here. `bytes` are the text's, one a character (ASCII): bytes[i] is
   * text.charCodeAt(i) for every i from start to end (a line end or the end of the bytes after it);
   * null (text not known to be ASCII): undefined. The event returned is this reader's, valid until
   * its next call.
   */
  read(text: string, start: number, end: number, bytes: Uint8Array | null): EventFields | undefined {
    if (bytes === null || bytes[start] !== OPEN) return undefined;
    this.present = 0;
    this.escaped = 0;
    this.text = text;
    this.bytes = bytes;
    if (viewOf !== bytes) {
      viewOf = bytes;
      view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    }
    let p = this.object(bytes, start, end, TOP, 0);
    if (p < 0) return undefined;
    p = skipSpaces(bytes, p, end);
    if (p !== end) return undefined;
    this.event.load();
    return this.event;
  }

  /** The bytes of the line read last. */
  bytes: Uint8Array = EMPTY;

  /**
   * Where the event's value of `span` (a SPAN) was read from: a field number for start/end, or -1
   * when the event has none. The same field its getter reads (payload's before the top level's, the
   * user's name before the e-mail address, created_at before timestamp).
   */
  spanField(span: number): number {
    switch (span) {
      case SPAN.resource:
        return this.picked(RESOURCE);
      case SPAN.user:
        return this.has(USERNAME) ? USERNAME : this.has(USER_EMAIL) ? USER_EMAIL : -1;
      case SPAN.agent:
        return this.picked(AGENT);
      case SPAN.time:
        return this.has(CREATED_AT) ? CREATED_AT : this.has(TIMESTAMP) ? TIMESTAMP : -1;
      case SPAN.protocol: {
        const egress = this.picked(EGRESS);
        if (egress < 0) return -1;
        const f = egress === EGRESS ? PROTOCOL : PROTOCOL + IN_PAYLOAD;
        return this.has(f) ? f : -1;
      }
      default: {
        // an HTTP request's method, host, port or path (SPAN.method … SPAN.path)
        const http = this.picked(HTTP);
        if (http < 0) return -1;
        const f = METHOD + (span - SPAN.method) + (http === HTTP ? 0 : IN_PAYLOAD);
        return this.has(f) ? f : -1;
      }
    }
  }

  /** payload's field when read, else the top level's, else -1. */
  private picked(field: number): number {
    return this.has(field + IN_PAYLOAD) ? field + IN_PAYLOAD : this.has(field) ? field : -1;
  }

  /** The first byte of a string field's text as written between its quotes (escapes undecoded). */
  start(field: number): number {
    return this.at[field * 2]!;
  }

  /** The end of a string field's text as written (its closing quote). */
  end(field: number): number {
    return this.at[field * 2 + 1]!;
  }

  /** Whether a string field's text holds an escape (its value is not its bytes). */
  isEscaped(field: number): boolean {
    return (this.escaped & (1 << field)) !== 0;
  }

  /** The value of a string field read, or undefined. */
  string(field: number): string | undefined {
    const bit = 1 << field;
    if ((this.present & bit) === 0) return undefined;
    if ((this.escaped & bit) !== 0) return this.decoded[field];
    return this.text.slice(this.at[field * 2]!, this.at[field * 2 + 1]);
  }

  has(field: number): boolean {
    return (this.present & (1 << field)) !== 0;
  }

  /**
   * Reads the object whose `{` is at p (one of the kinds above), recording the fields of its kind;
   * returns the position after its `}`, or -1 when it is not in the form read here.
   */
  private object(b: Uint8Array, p: number, end: number, kind: number, depth: number): number {
    if (depth >= MAX_DEPTH) return -1;
    p = skipSpaces(b, p + 1, end);
    if (b[p]! === CLOSE) return p + 1;
    // the fields this object has given: one given twice is left to JSON.parse (it keeps the last)
    let seen = 0;
    for (;;) {
      if (b[p]! !== QUOTE) return -1;
      const k = p + 1;
      // a key read is recognised by its characters, followed by its closing quote; any other is scanned
      const name = nameAt(b, k, end, kind);
      const field = name < 0 ? -1 : FIELD[name]!;
      const kEnd = name < 0 ? plainStringEnd(b, k, end) : k + LENGTH[name]!;
      if (kEnd < 0) return -1;
      p = kEnd + 1;
      if (b[p]! !== COLON) {
        p = skipSpaces(b, p, end);
        if (b[p]! !== COLON) return -1;
      }
      p++;
      let c = b[p]!;
      if (c === SPACE) {
        p = skipSpaces(b, p, end);
        c = b[p]!;
      }
      if (field < 0) {
        if (c === QUOTE) {
          // a string (the usual value), passed over as skipValue passes it
          const e = stringEnd(b, p + 1, end);
          p = e < 0 ? -1 : e + 1;
        } else p = skipValue(b, p, end, c, depth);
      } else {
        const bit = 1 << field;
        if ((seen & bit) !== 0) return -1;
        seen |= bit;
        const slot = ((kind & 1) === 1 ? field + IN_PAYLOAD : field) * 2;
        if (field === PAYLOAD || field === EGRESS || field === HTTP) {
          if (c !== OPEN) return -1;
          const inner =
            field === PAYLOAD ? PAYLOAD_OBJECT : (field === EGRESS ? EGRESS_OBJECT : HTTP_OBJECT) + kind;
          const from = p;
          p = this.object(b, p, end, inner, depth + 1);
          if (p < 0) return -1;
          this.at[slot] = from;
          this.at[slot + 1] = p;
          this.present |= 1 << (slot >> 1);
        } else {
          if (c !== QUOTE) return -1;
          escapes = false;
          const vEnd = stringEnd(b, p + 1, end);
          if (vEnd < 0) return -1;
          this.at[slot] = p + 1;
          this.at[slot + 1] = vEnd;
          this.present |= 1 << (slot >> 1);
          if (escapes) {
            // the literal, checked above to be one JSON has: JSON.parse decodes it as in the line
            let value: unknown;
            try {
              value = JSON.parse(this.text.slice(p, vEnd + 1));
            } catch {
              return -1;
            }
            if (typeof value !== 'string') return -1;
            this.decoded[slot >> 1] = value;
            this.escaped |= 1 << (slot >> 1);
          }
          p = vEnd + 1;
        }
      }
      if (p < 0) return -1;
      c = b[p]!;
      if (c === SPACE) {
        p = skipSpaces(b, p, end);
        c = b[p]!;
      }
      if (c === CLOSE) return p + 1;
      if (c !== COMMA) return -1;
      p = skipSpaces(b, p + 1, end);
    }
  }
}

/** The fields read in each kind of object (the top level's numbers), by name. */
const FIELD_NAMES: readonly (readonly [string, number])[][] = [
  [
    ['category', CATEGORY],
    ['action_type', ACTION_TYPE],
    ['event_type', EVENT_TYPE],
    ['decision', DECISION],
    ['username', USERNAME],
    ['user_email', USER_EMAIL],
    ['created_at', CREATED_AT],
    ['timestamp', TIMESTAMP],
    ['payload', PAYLOAD],
    ['resource_id', RESOURCE],
    ['agent', AGENT],
    ['network_egress', EGRESS],
    ['http_request', HTTP],
    ['audit_session_id', SESSION],
    ['enforcement_mode', MODE],
  ],
  [
    ['resource_id', RESOURCE],
    ['agent', AGENT],
    ['network_egress', EGRESS],
    ['http_request', HTTP],
  ],
  [['protocol', PROTOCOL]],
  [
    ['method', METHOD],
    ['host', HOST],
    ['port', PORT],
    ['path', PATH],
  ],
];
/** The names of all kinds in one list: NAME[i] is field FIELD[i]. */
const NAME: string[] = [];
const FIELD: number[] = [];
/** NAME[i].length. */
const LENGTH: number[] = [];
/** The next name of the same kind and first character after NAME[i], or -1. */
const NEXT: number[] = [];
/** By kind and first character: 1 + the first name in NAME, or 0. */
const FIRST = new Int16Array(FIELD_NAMES.length * 128);
FIELD_NAMES.forEach((names, kindClass) => {
  for (const [name, field] of names) {
    const slot = kindClass * 128 + name.charCodeAt(0);
    NAME.push(name);
    LENGTH.push(name.length);
    FIELD.push(field);
    NEXT.push(FIRST[slot]! - 1);
    FIRST[slot] = NAME.length;
  }
});

/**
 * Each name's bytes as little-endian words of four (every name has four characters or more): the
 * words at 0, 4, 8, … and, when its length is not a multiple of four, the last four characters.
 * WORDS[WORD_AT[i] …] are NAME[i]'s.
 */
const WORD_AT: number[] = [];
const WORDS: Int32Array = (() => {
  const words: number[] = [];
  for (const name of NAME) {
    if (name.length < 4) throw new Error(`field name too short: ${name}`);
    WORD_AT.push(words.length);
    for (let j = 0; j * 4 < name.length; j++) {
      const o = Math.min(j * 4, name.length - 4);
      words.push(
        name.charCodeAt(o) |
          (name.charCodeAt(o + 1) << 8) |
          (name.charCodeAt(o + 2) << 16) |
          (name.charCodeAt(o + 3) << 24),
      );
    }
  }
  return Int32Array.from(words);
})();

/** A field read's index in NAME for the key starting at k, when it is one whose closing quote is before end; else -1. */
function nameAt(b: Uint8Array, k: number, end: number, kind: number): number {
  const c = b[k]!;
  if (c >= 128) return -1;
  // kinds: top 0, payload 1, network_egress 2 or 3, http_request 4 or 5
  const kindClass = kind < EGRESS_OBJECT ? kind : (kind >> 1) + 1;
  for (let i = FIRST[kindClass * 128 + c]! - 1; i >= 0; i = NEXT[i]!) {
    const n = LENGTH[i]!;
    if (k + n < end && b[k + n] === QUOTE && sameName(k, n, WORD_AT[i]!)) return i;
  }
  return -1;
}

/** Whether the bytes at k (n of them, before the end of the line) are those of the name whose words start at w. */
function sameName(k: number, n: number, w: number): boolean {
  const v = view;
  for (let o = 0; o < n; o += 4) {
    if (v.getInt32(o + 4 <= n ? k + o : k + n - 4, true) !== WORDS[w++]) return false;
  }
  return true;
}

/** Set by stringEnd when the string it ended held an escape. */
let escapes = false;
/** A view of the bytes being read (those of `viewOf`), for reading them four at a time. */
let view: DataView = new DataView(new ArrayBuffer(0));
let viewOf: Uint8Array | null = null;

/**
 * The end (closing quote) of the string whose characters start at p, or -1 when it holds a control
 * character (JSON.parse refuses it) or an escape JSON does not have, or does not end by end. An
 * escape sets `escapes`.
 */
function stringEnd(b: Uint8Array, p: number, end: number): number {
  const v = view;
  // Four bytes x at a time (ASCII: each under 0x80, so no word overflows): the high bit of a byte of
  // t is set for a byte under 0x20, a quote or a backslash, and the lowest one set is the first such
  // byte ((y - 0x01…) & ~y has a byte's high bit set where y's byte is 0; borrows only mark bytes above
  // the first one).
  for (;;) {
    while (p + 4 <= end) {
      const x = v.getInt32(p, true);
      const q = x ^ 0x22222222;
      const s = x ^ 0x5c5c5c5c;
      const t = (((x - 0x20202020) & ~x) | ((q - 0x01010101) & ~q) | ((s - 0x01010101) & ~s)) & 0x80808080;
      if (t !== 0) {
        p += (31 - Math.clz32(t & -t)) >> 3;
        break;
      }
      p += 4;
    }
    if (p >= end) return -1;
    const c = b[p]!;
    if (c === QUOTE) return p;
    if (c < SPACE) return -1;
    if (c === BACKSLASH) {
      p = escapeEnd(b, p, end);
      if (p < 0) return -1;
      escapes = true;
    }
    p++;
  }
}

/** The last character of the escape whose backslash is at p (\" \\ \/ \b \f \n \r \t \uXXXX), or -1. */
function escapeEnd(b: Uint8Array, p: number, end: number): number {
  if (p + 1 >= end) return -1;
  const c = b[p + 1]!;
  if (c === 0x75) {
    if (p + 5 >= end) return -1;
    for (let i = p + 2; i <= p + 5; i++) {
      const h = b[i]!;
      if (!((h >= ZERO && h <= NINE) || (h >= 0x61 && h <= 0x66) || (h >= 0x41 && h <= 0x46))) return -1;
    }
    return p + 5;
  }
  // " \ / b f n r t
  if (
    c === QUOTE ||
    c === BACKSLASH ||
    c === 0x2f ||
    c === 0x62 ||
    c === 0x66 ||
    c === 0x6e ||
    c === 0x72 ||
    c === 0x74
  )
    return p + 1;
  return -1;
}

/** stringEnd for a key of an object whose fields are read: -1 for any backslash too. */
function plainStringEnd(b: Uint8Array, p: number, end: number): number {
  const was = escapes;
  escapes = false;
  const e = stringEnd(b, p, end);
  const escaped = escapes;
  escapes = was;
  return escaped ? -1 : e;
}

/** Whether b holds s at k (the caller has checked that the lengths agree). */
function same(b: Uint8Array, k: number, s: string): boolean {
  for (let i = 0; i < s.length; i++) if (b[k + i]! !== s.charCodeAt(i)) return false;
  return true;
}

function skipSpaces(b: Uint8Array, p: number, end: number): number {
  while (p < end && b[p]! === SPACE) p++;
  return p;
}

/** Passes over the JSON value starting at p (its first character c); -1 when it is not one. */
function skipValue(b: Uint8Array, p: number, end: number, c: number, depth: number): number {
  if (c === QUOTE) {
    const e = stringEnd(b, p + 1, end);
    return e < 0 ? -1 : e + 1;
  }
  if (c === OPEN) return skipObject(b, p, end, depth + 1);
  if (c === OPEN_LIST) return skipList(b, p, end, depth + 1);
  if (c === MINUS || (c >= ZERO && c <= NINE)) return skipNumber(b, p, end);
  if (c === 0x74) return p + 4 <= end && same(b, p, 'true') ? p + 4 : -1;
  if (c === 0x66) return p + 5 <= end && same(b, p, 'false') ? p + 5 : -1;
  if (c === 0x6e) return p + 4 <= end && same(b, p, 'null') ? p + 4 : -1;
  return -1;
}

function skipObject(b: Uint8Array, p: number, end: number, depth: number): number {
  if (depth >= MAX_DEPTH) return -1;
  p = skipSpaces(b, p + 1, end);
  if (b[p]! === CLOSE) return p + 1;
  for (;;) {
    if (b[p]! !== QUOTE) return -1;
    const kEnd = stringEnd(b, p + 1, end);
    if (kEnd < 0) return -1;
    p = skipSpaces(b, kEnd + 1, end);
    if (b[p]! !== COLON) return -1;
    p = skipSpaces(b, p + 1, end);
    p = skipValue(b, p, end, b[p]!, depth);
    if (p < 0) return -1;
    p = skipSpaces(b, p, end);
    const c = b[p]!;
    if (c === CLOSE) return p + 1;
    if (c !== COMMA) return -1;
    p = skipSpaces(b, p + 1, end);
  }
}

function skipList(b: Uint8Array, p: number, end: number, depth: number): number {
  if (depth >= MAX_DEPTH) return -1;
  p = skipSpaces(b, p + 1, end);
  if (b[p]! === CLOSE_LIST) return p + 1;
  for (;;) {
    p = skipValue(b, p, end, b[p]!, depth);
    if (p < 0) return -1;
    p = skipSpaces(b, p, end);
    const c = b[p]!;
    if (c === CLOSE_LIST) return p + 1;
    if (c !== COMMA) return -1;
    p = skipSpaces(b, p + 1, end);
  }
}

/** A JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
function skipNumber(b: Uint8Array, p: number, end: number): number {
  if (b[p]! === MINUS) p++;
  let c = b[p]!;
  if (c === ZERO) p++;
  else if (c > ZERO && c <= NINE) p = digits(b, p + 1, end);
  else return -1;
  c = b[p]!;
  if (c === DOT) {
    const q = digits(b, p + 1, end);
    if (q === p + 1) return -1;
    p = q;
    c = b[p]!;
  }
  if (c === 0x65 || c === 0x45) {
    p++;
    c = b[p]!;
    if (c === PLUS || c === MINUS) p++;
    const q = digits(b, p, end);
    if (q === p) return -1;
    p = q;
  }
  return p > end ? -1 : p;
}

function digits(b: Uint8Array, p: number, end: number): number {
  while (p < end) {
    const c = b[p]!;
    if (c < ZERO || c > NINE) break;
    p++;
  }
  return p;
}

/** The event of the line a reader read last: its fields as readAuditRecord gives them. */
class LineEvent implements EventFields {
  /** The resource, once asked for (an HTTP request or a skipped event does not need it); null: not yet. */
  private resourceValue: string | undefined | null = null;
  private readonly egress: { protocol?: string } = {};
  private readonly http: { method?: string; host?: string; port?: string; path?: string } = {};

  constructor(private readonly r: EventFieldReader) {}

  /** readAuditRecord's `pick`: a field of payload when payload is an object that has it, else the top level's. */
  private pick(field: number): number {
    return this.r.has(field + IN_PAYLOAD) ? field + IN_PAYLOAD : field;
  }

  /** A new line: every value is made when asked for (a caller comparing in place asks for few). */
  load(): void {
    this.resourceValue = null;
  }

  get category(): string | undefined {
    return this.r.string(CATEGORY);
  }

  get actionType(): string | undefined {
    return this.r.string(ACTION_TYPE);
  }

  get decision(): string | undefined {
    return this.r.string(DECISION);
  }

  /** network_egress as read (one object, reused: its values are this line's at each ask). */
  get networkEgress(): { protocol?: string } | undefined {
    const r = this.r;
    const egress = this.pick(EGRESS);
    if (!r.has(egress)) return undefined;
    this.egress.protocol = r.string(egress === EGRESS ? PROTOCOL : PROTOCOL + IN_PAYLOAD);
    return this.egress;
  }

  /** http_request as read (one object, reused: its values are this line's at each ask). */
  get httpRequest(): { method?: string; host?: string; port?: string; path?: string } | undefined {
    const r = this.r;
    const http = this.pick(HTTP);
    if (!r.has(http)) return undefined;
    const o = http === HTTP ? 0 : IN_PAYLOAD;
    this.http.method = r.string(METHOD + o);
    this.http.host = r.string(HOST + o);
    this.http.port = r.string(PORT + o);
    this.http.path = r.string(PATH + o);
    return this.http;
  }

  get eventType(): string | undefined {
    return this.r.string(EVENT_TYPE);
  }

  get resource(): string | undefined {
    if (this.resourceValue === null) this.resourceValue = this.r.string(this.pick(RESOURCE));
    return this.resourceValue;
  }

  get user(): string | undefined {
    return this.r.string(USERNAME) ?? this.r.string(USER_EMAIL);
  }

  get agent(): string | undefined {
    return this.r.string(this.pick(AGENT));
  }

  get time(): string | undefined {
    return this.r.string(CREATED_AT) ?? this.r.string(TIMESTAMP);
  }

  /** readAuditRecord's timeMs (made when asked for: only a filter on time does). */
  get timeMs(): number {
    const t = this.time;
    return t === undefined ? Number.NaN : Date.parse(t);
  }

  get session(): string | undefined {
    return this.r.string(SESSION);
  }

  get mode(): string | undefined {
    return this.r.string(MODE);
  }
}
