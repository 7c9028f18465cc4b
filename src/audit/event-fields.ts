// The fields `policy replay` needs from one audit event line, read in place without JSON.parse, for
// lines in the simple form audit logs are written in. PURE: no IO.
//
// `readEventFields` gives what `readAuditRecord(JSON.parse(line))` gives for those fields (category,
// action and event type, decision, user, agent, time, resource, network_egress.protocol and
// http_request's method, host, port and path, in either shape, audit-and-mcp.md §1–2), or undefined:
// the caller then takes the full path. It answers only when it is sure, and is undefined for:
// - a line holding a backslash (an escape) or a control character anywhere;
// - anything that is not valid JSON, or not one object (leading whitespace included);
// - a field it reads given twice in one object (JSON.parse keeps the last: the full path decides);
// - a field it reads with another type than the usual one (a string; an object for `payload`,
//   `network_egress` and `http_request`; a numeric `port`), or nesting deeper than MAX_DEPTH.
// Everything else (other fields, of any type, at any depth; unicode) is checked against the JSON
// grammar and passed over. Without escapes a `"` always ends a string, so a string is found with one
// native indexOf, and a value read is the line's text between its quotes, as JSON.parse reads it.
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

/**
 * From lastIndex, the longest run without a backslash or a control character other than LF (lines
 * decoded together are separated by LF): a line inside such a run has no escape, and none of the
 * characters a JSON string cannot hold as they are.
 */
const CLEAN = /[^\x00-\x09\x0b-\x1f\\]*/y;

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
const FIELDS = 27;

// The objects whose fields are read; an odd one is under payload (its slots are + IN_PAYLOAD).
const TOP = 0;
const PAYLOAD_OBJECT = 1;
const EGRESS_OBJECT = 2;
const HTTP_OBJECT = 4;

/** Reads the fields of audit event lines; one reader, reused line after line. */
export class EventFieldReader {
  /** Start and end of each field's value (a string's characters, an object's braces); -1: absent. */
  private readonly at = new Int32Array(FIELDS * 2);
  private text = '';
  /** The run of text CLEAN last matched: [cleanFrom, cleanTo) of cleanText. */
  private cleanText = '';
  private cleanFrom = 0;
  private cleanTo = -1;
  private readonly event = new LineEvent(this);

  /**
   * The fields of the line text[start, end) (without its line end), or undefined when the line is not
   * in the simple form read here. The event returned is this reader's, valid until its next call.
   */
  read(text: string, start: number, end: number): ReplayEvent | undefined {
    if (!this.clean(text, start, end)) return undefined;
    // a line feed is allowed in a run of lines, not in one line (JSON.parse refuses it in a string)
    const lf = text.indexOf('\n', start);
    if (lf >= 0 && lf < end) return undefined;
    if (text.charCodeAt(start) !== OPEN) return undefined;
    this.at.fill(-1);
    this.text = text;
    let p = this.object(text, start, end, TOP, 0);
    if (p < 0) return undefined;
    while (p < end && text.charCodeAt(p) === SPACE) p++;
    if (p !== end) return undefined;
    this.event.load();
    return this.event;
  }

  /** Whether text[start, end) holds no backslash and no control character. */
  private clean(text: string, start: number, end: number): boolean {
    if (text !== this.cleanText || start < this.cleanFrom || start > this.cleanTo) {
      CLEAN.lastIndex = start;
      CLEAN.test(text);
      this.cleanText = text;
      this.cleanFrom = start;
      this.cleanTo = CLEAN.lastIndex;
    }
    return end <= this.cleanTo;
  }

  /** The value of a string field read, or undefined. */
  string(field: number): string | undefined {
    const s = this.at[field * 2]!;
    return s < 0 ? undefined : this.text.slice(s, this.at[field * 2 + 1]);
  }

  has(field: number): boolean {
    return this.at[field * 2]! >= 0;
  }

  /**
   * Reads the object whose `{` is at p (one of the kinds above), recording the fields of its kind;
   * returns the position after its `}`, or -1 when it is not in the form read here.
   */
  private object(t: string, p: number, end: number, kind: number, depth: number): number {
    if (depth >= MAX_DEPTH) return -1;
    p = skipSpaces(t, p + 1, end);
    if (t.charCodeAt(p) === CLOSE) return p + 1;
    // the fields this object has given: one given twice is left to JSON.parse (it keeps the last)
    let seen = 0;
    for (;;) {
      if (t.charCodeAt(p) !== QUOTE) return -1;
      const k = p + 1;
      const kEnd = t.indexOf('"', k);
      if (kEnd < 0 || kEnd >= end) return -1;
      p = kEnd + 1;
      if (t.charCodeAt(p) !== COLON) {
        p = skipSpaces(t, p, end);
        if (t.charCodeAt(p) !== COLON) return -1;
      }
      p++;
      let c = t.charCodeAt(p);
      if (c === SPACE) {
        p = skipSpaces(t, p, end);
        c = t.charCodeAt(p);
      }
      const field = fieldOf(t, k, kEnd, kind);
      if (field < 0) {
        p = skipValue(t, p, end, c, depth);
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
          p = this.object(t, p, end, inner, depth + 1);
          if (p < 0) return -1;
          this.at[slot] = from;
          this.at[slot + 1] = p;
        } else {
          if (c !== QUOTE) return -1;
          const vEnd = t.indexOf('"', p + 1);
          if (vEnd < 0 || vEnd >= end) return -1;
          this.at[slot] = p + 1;
          this.at[slot + 1] = vEnd;
          p = vEnd + 1;
        }
      }
      if (p < 0) return -1;
      c = t.charCodeAt(p);
      if (c === SPACE) {
        p = skipSpaces(t, p, end);
        c = t.charCodeAt(p);
      }
      if (c === CLOSE) return p + 1;
      if (c !== COMMA) return -1;
      p = skipSpaces(t, p + 1, end);
    }
  }
}

/**
 * The field the key t[k, kEnd) names in an object of this kind, or -1 for a field not read (the
 * top level's number: the caller moves the fields of an object under payload).
 */
function fieldOf(t: string, k: number, kEnd: number, kind: number): number {
  const n = kEnd - k;
  const c = t.charCodeAt(k);
  if (kind <= PAYLOAD_OBJECT) {
    if (kind === TOP) {
      switch (n) {
        case 7:
          if (same(t, k, 'payload')) return PAYLOAD;
          break;
        case 8:
          if (c === 0x63 && same(t, k, 'category')) return CATEGORY;
          if (c === 0x64 && same(t, k, 'decision')) return DECISION;
          if (c === 0x75 && same(t, k, 'username')) return USERNAME;
          break;
        case 9:
          if (same(t, k, 'timestamp')) return TIMESTAMP;
          break;
        case 10:
          if (c === 0x65 && same(t, k, 'event_type')) return EVENT_TYPE;
          if (c === 0x75 && same(t, k, 'user_email')) return USER_EMAIL;
          if (c === 0x63 && same(t, k, 'created_at')) return CREATED_AT;
          break;
        case 11:
          if (c === 0x61 && same(t, k, 'action_type')) return ACTION_TYPE;
          break;
      }
    }
    switch (n) {
      case 5:
        if (same(t, k, 'agent')) return AGENT;
        break;
      case 11:
        if (c === 0x72 && same(t, k, 'resource_id')) return RESOURCE;
        break;
      case 12:
        if (same(t, k, 'http_request')) return HTTP;
        break;
      case 14:
        if (same(t, k, 'network_egress')) return EGRESS;
        break;
    }
    return -1;
  }
  if (kind < HTTP_OBJECT) return n === 8 && same(t, k, 'protocol') ? PROTOCOL : -1;
  switch (n) {
    case 4:
      if (c === 0x68 && same(t, k, 'host')) return HOST;
      if (c === 0x70 && same(t, k, 'port')) return PORT;
      if (c === 0x70 && same(t, k, 'path')) return PATH;
      break;
    case 6:
      if (same(t, k, 'method')) return METHOD;
      break;
  }
  return -1;
}

/** Whether t holds s at k (the caller has checked that the lengths agree). */
function same(t: string, k: number, s: string): boolean {
  for (let i = 0; i < s.length; i++) if (t.charCodeAt(k + i) !== s.charCodeAt(i)) return false;
  return true;
}

function skipSpaces(t: string, p: number, end: number): number {
  while (p < end && t.charCodeAt(p) === SPACE) p++;
  return p;
}

/** Passes over the JSON value starting at p (its first character c); -1 when it is not one. */
function skipValue(t: string, p: number, end: number, c: number, depth: number): number {
  if (c === QUOTE) {
    const e = t.indexOf('"', p + 1);
    return e < 0 || e >= end ? -1 : e + 1;
  }
  if (c === OPEN) return skipObject(t, p, end, depth + 1);
  if (c === OPEN_LIST) return skipList(t, p, end, depth + 1);
  if (c === MINUS || (c >= ZERO && c <= NINE)) return skipNumber(t, p, end);
  if (c === 0x74) return t.startsWith('true', p) && p + 4 <= end ? p + 4 : -1;
  if (c === 0x66) return t.startsWith('false', p) && p + 5 <= end ? p + 5 : -1;
  if (c === 0x6e) return t.startsWith('null', p) && p + 4 <= end ? p + 4 : -1;
  return -1;
}

function skipObject(t: string, p: number, end: number, depth: number): number {
  if (depth >= MAX_DEPTH) return -1;
  p = skipSpaces(t, p + 1, end);
  if (t.charCodeAt(p) === CLOSE) return p + 1;
  for (;;) {
    if (t.charCodeAt(p) !== QUOTE) return -1;
    const kEnd = t.indexOf('"', p + 1);
    if (kEnd < 0 || kEnd >= end) return -1;
    p = skipSpaces(t, kEnd + 1, end);
    if (t.charCodeAt(p) !== COLON) return -1;
    p = skipSpaces(t, p + 1, end);
    p = skipValue(t, p, end, t.charCodeAt(p), depth);
    if (p < 0) return -1;
    p = skipSpaces(t, p, end);
    const c = t.charCodeAt(p);
    if (c === CLOSE) return p + 1;
    if (c !== COMMA) return -1;
    p = skipSpaces(t, p + 1, end);
  }
}

function skipList(t: string, p: number, end: number, depth: number): number {
  if (depth >= MAX_DEPTH) return -1;
  p = skipSpaces(t, p + 1, end);
  if (t.charCodeAt(p) === CLOSE_LIST) return p + 1;
  for (;;) {
    p = skipValue(t, p, end, t.charCodeAt(p), depth);
    if (p < 0) return -1;
    p = skipSpaces(t, p, end);
    const c = t.charCodeAt(p);
    if (c === CLOSE_LIST) return p + 1;
    if (c !== COMMA) return -1;
    p = skipSpaces(t, p + 1, end);
  }
}

/** A JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
function skipNumber(t: string, p: number, end: number): number {
  if (t.charCodeAt(p) === MINUS) p++;
  let c = t.charCodeAt(p);
  if (c === ZERO) p++;
  else if (c > ZERO && c <= NINE) p = digits(t, p + 1, end);
  else return -1;
  c = t.charCodeAt(p);
  if (c === DOT) {
    const q = digits(t, p + 1, end);
    if (q === p + 1) return -1;
    p = q;
    c = t.charCodeAt(p);
  }
  if (c === 0x65 || c === 0x45) {
    p++;
    c = t.charCodeAt(p);
    if (c === PLUS || c === MINUS) p++;
    const q = digits(t, p, end);
    if (q === p) return -1;
    p = q;
  }
  return p > end ? -1 : p;
}

function digits(t: string, p: number, end: number): number {
  while (p < end) {
    const c = t.charCodeAt(p);
    if (c < ZERO || c > NINE) break;
    p++;
  }
  return p;
}

/** The event of the line a reader read last: its fields as readAuditRecord gives them. */
class LineEvent implements ReplayEvent {
  category: string | undefined;
  actionType: string | undefined;
  eventType: string | undefined;
  decision: string | undefined;
  resource: string | undefined;
  networkEgress: { protocol?: string } | undefined;
  httpRequest: { method?: string; host?: string; port?: string; path?: string } | undefined;
  private readonly egress: { protocol?: string } = {};
  private readonly http: { method?: string; host?: string; port?: string; path?: string } = {};

  constructor(private readonly r: EventFieldReader) {}

  /** readAuditRecord's `pick`: a field of payload when payload is an object that has it, else the top level's. */
  private pick(field: number): number {
    return this.r.has(field + IN_PAYLOAD) ? field + IN_PAYLOAD : field;
  }

  load(): void {
    const r = this.r;
    this.category = r.string(CATEGORY);
    this.actionType = r.string(ACTION_TYPE);
    this.eventType = r.string(EVENT_TYPE);
    this.decision = r.string(DECISION);
    this.resource = r.string(this.pick(RESOURCE));
    const egress = this.pick(EGRESS);
    if (r.has(egress)) {
      this.egress.protocol = r.string(egress === EGRESS ? PROTOCOL : PROTOCOL + IN_PAYLOAD);
      this.networkEgress = this.egress;
    } else this.networkEgress = undefined;
    const http = this.pick(HTTP);
    if (r.has(http)) {
      const o = http === HTTP ? 0 : IN_PAYLOAD;
      this.http.method = r.string(METHOD + o);
      this.http.host = r.string(HOST + o);
      this.http.port = r.string(PORT + o);
      this.http.path = r.string(PATH + o);
      this.httpRequest = this.http;
    } else this.httpRequest = undefined;
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
}
