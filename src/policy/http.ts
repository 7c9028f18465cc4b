// HTTP (L7) rules, evaluated offline (issue 14): a rule's `{host, port?, path}` and a request's URL.
// A request is decided over the network rules of its connection (`connect:tcp` to host:port) and the
// HTTP rules of its method together, deny winning: so a network allow alone allows every method, an
// HTTP allow alone only what it matches, an HTTP deny carves out of a network allow, and no HTTP allow
// reopens a network deny. In a path `*` is one segment, `**` any depth (none included); a path
// without wildcard matches exactly. Pure: no IO.

import { ValidationError } from '../errors.js';
import { Ascii } from './ascii.js';
import { HTTP_ACTIONS, type HttpResource } from './model.js';
import { type NetworkPattern, parseNetworkResource } from './network.js';
import {
  HostScratch,
  type NetworkDestination,
  packScanned,
  parseNetworkDestination,
  scanHostChars,
  scannedEnd,
} from './network-destination.js';
import { NetworkIndex } from './network-index.js';
import type { Hits } from './tables/bucket.js';
import { httpPathProblem } from './validate.js';

/** One HTTP resource of a rule, compiled. */
export interface HttpPattern {
  /** The host pattern, with the resource's port (0: every port). */
  readonly host: NetworkPattern;
  /** The path's segments (`/` has none); `*` and `**` are wildcards. */
  readonly segments: readonly string[];
  readonly path: string;
}

/** A request of an HTTP action: where it connects, and its path in canonical form. */
export interface HttpRequest {
  readonly dest: NetworkDestination;
  readonly path: string;
}

/**
 * The segments of the request path being decided, as [start, end) offsets into its text: scratch
 * state of one compiled set, reused from request to request.
 */
export class PathBounds {
  at = new Int32Array(256);
  n = 0;
}

export const REQUEST_FORM = 'an http:// or https:// URL with a canonical path (https://api.example.com/a/b)';

/** Compiles one HTTP resource (already validated by validateHttpResource). */
export function parseHttpPattern(r: HttpResource): HttpPattern {
  const host = parseNetworkResource(r.host);
  const port = r.port ?? 0;
  const canonical = port === 0 ? host.canonical : `${host.canonical}:${port}`;
  return Object.freeze({
    host: Object.freeze({ ...host, port, canonical }),
    segments: Object.freeze(r.path === '/' ? [] : r.path.slice(1).split('/')),
    path: r.path,
  });
}

function badRequest(value: string, problem: string): ValidationError {
  return new ValidationError(`invalid HTTP request "${value}": ${problem}; a request is ${REQUEST_FORM}`);
}

/**
 * Reads the segments of the canonical path text[from, text.length) into `b`: false when it is not
 * canonical (an empty, `.` or `..` segment, a character outside printable ASCII, or ? # % \).
 */
export function pathBounds(text: string, from: number, b: PathBounds): boolean {
  const n = text.length;
  b.n = 0;
  // no path, or `/`: no segment
  if (from >= n - 1) return true;
  let segStart = from + 1;
  for (let j = segStart; j <= n; j++) {
    const c = j === n ? Ascii.Slash : text.charCodeAt(j);
    if (c === Ascii.Slash) {
      const len = j - segStart;
      if (len === 0 || b.n === b.at.length) return false;
      if (
        text.charCodeAt(segStart) === Ascii.Dot &&
        (len === 1 || (len === 2 && text.charCodeAt(segStart + 1) === Ascii.Dot))
      )
        return false;
      b.at[b.n++] = segStart;
      b.at[b.n++] = j;
      segStart = j + 1;
    } else if (
      c < Ascii.Bang ||
      c > Ascii.Tilde ||
      c === Ascii.QuestionMark ||
      c === Ascii.Hash ||
      c === Ascii.Percent ||
      c === Ascii.Backslash
    ) {
      return false;
    }
  }
  return true;
}

/**
 * Where the host starts after `https://` (8) or `http://` (7), in lower case; -1 for anything else.
 * Read a character at a time, where two calls of startsWith, one per scheme, ran per request.
 */
function schemeEnd(v: string): number {
  // h t t p
  if (
    v.charCodeAt(0) !== Ascii.LowerH ||
    v.charCodeAt(1) !== Ascii.LowerT ||
    v.charCodeAt(2) !== Ascii.LowerT ||
    v.charCodeAt(3) !== Ascii.LowerP
  )
    return -1;
  const at = v.charCodeAt(4) === Ascii.LowerS ? 5 : 4;
  // : / /
  return v.charCodeAt(at) === Ascii.Colon &&
    v.charCodeAt(at + 1) === Ascii.Slash &&
    v.charCodeAt(at + 2) === Ascii.Slash
    ? at + 3
    : -1;
}

/**
 * The common request read in one scan, allocating nothing: `http(s)://` in lower case, a plain
 * hostname with an optional port (copied into `chars`, as scanHostChars reads it) and a canonical
 * path (its segments into `b`). Returns `port << 8 | end of the host` as scanHostChars does, or -1
 * for anything else, which parseHttpRequest reads (and refuses with the reason when it must).
 */
export function scanRequest(value: string, b: PathBounds, chars: Uint16Array): number {
  let i = schemeEnd(value);
  if (i < 0) return -1;
  const start = i;
  const n = value.length;
  let colon = false;
  for (; i < n; i++) {
    const c = value.charCodeAt(i);
    if (c === Ascii.Slash) break;
    if (c === Ascii.Colon) colon = true;
    else if (
      c === Ascii.At ||
      c === Ascii.Percent ||
      c === Ascii.Backslash ||
      c === Ascii.QuestionMark ||
      c === Ascii.Hash ||
      c === Ascii.LeftBracket ||
      c > Ascii.Tilde
    )
      return -1;
    if (i - start > 254) return -1;
    chars[i - start] = c;
  }
  const scanned = scanHostChars(chars, i - start);
  if (scanned < 0 || !pathBounds(value, i, b)) return -1;
  // no port: the scheme's (scanHostChars takes 443, as any destination without port)
  return !colon && start === 7 ? packScanned(80, scannedEnd(scanned)) : scanned;
}

/**
 * Parses the URL of an HTTP request: the host and port by the WHATWG rules (as any network
 * destination), the path as written, which must be canonical: no query, fragment, percent-encoding,
 * `.` or `..`, repeated or trailing slash, nothing outside printable ASCII. Anything else is refused,
 * since servers and proxies normalize such paths differently. Its segments go into `b`.
 */
export function parseHttpRequest(value: string, b: PathBounds, s = new HostScratch()): HttpRequest {
  const scheme = /^https?:\/\//i.exec(value);
  if (scheme === null) throw badRequest(value, 'it is not an http:// or https:// URL');
  const dest = parseNetworkDestination(value, s);
  const rest = value.slice(scheme[0].length);
  const end = rest.search(/[/?#]/);
  const raw = end < 0 ? '/' : rest.slice(end);
  const path = raw.startsWith('/') ? raw : `/${raw}`;
  const problem = /[^\x21-\x7e]/.test(path)
    ? 'a path is printable ASCII (percent-encoding is not evaluated)'
    : httpPathProblem(path, false);
  if (problem !== null || !pathBounds(path, 0, b)) {
    throw badRequest(value, problem ?? 'a path has at most 128 segments');
  }
  return { dest, path };
}

/**
 * Does a pattern's segments match the path segments in `b` (offsets into `text`)? `*` is one
 * segment, `**` any number (none included); the last `**` seen takes more on a mismatch, so this is
 * linear in practice.
 */
export function matchHttpPath(p: readonly string[], text: string, b: PathBounds): boolean {
  const at = b.at;
  const count = b.n >> 1;
  let i = 0;
  let j = 0;
  let star = -1;
  let mark = 0;
  while (j < count) {
    const seg = i < p.length ? p[i]! : null;
    if (seg !== null && seg !== '**' && (seg === '*' || sameSegment(seg, text, at[2 * j]!, at[2 * j + 1]!))) {
      i++;
      j++;
    } else if (seg === '**') {
      star = i++;
      mark = j;
    } else if (star >= 0) {
      i = star + 1;
      j = ++mark;
    } else {
      return false;
    }
  }
  while (i < p.length && p[i] === '**') i++;
  return i === p.length;
}

function sameSegment(seg: string, text: string, s: number, e: number): boolean {
  return seg.length === e - s && text.startsWith(seg, s);
}

const NO_PATH: readonly string[] = [];

/** The bit of each HTTP action (`request:get` …) in an entry's methods. */
export const HTTP_METHOD_BIT: ReadonlyMap<string, number> = new Map(HTTP_ACTIONS.map((a, i) => [a, 1 << i]));

/**
 * The HTTP rules of every method: hosts in one network index, then each hit's methods and path
 * checked. One index for all methods (not one per method), so that a rule of several methods holds
 * its host name once, and the names a lookup may load are as few as the rules' hosts.
 */
export class HttpIndex {
  private readonly hosts = new NetworkIndex();
  /** The path segments of each entry added, by entry id (dense). */
  private readonly paths: (readonly string[])[] = [];
  /** The methods of each entry added (HTTP_METHOD_BIT bits), by entry id. */
  private readonly methods: number[] = [];

  add(p: HttpPattern, id: number, methods: number): void {
    this.hosts.add(p.host, id);
    while (this.paths.length < id) {
      this.paths.push(NO_PATH);
      this.methods.push(0);
    }
    this.paths[id] = p.segments;
    this.methods[id] = methods;
  }

  /** Adds the ids of the entries of `method` whose host, port and path (text, segments in b) match. */
  lookup(
    dest: NetworkDestination,
    method: number,
    text: string,
    b: PathBounds,
    s: HostScratch,
    out: Hits,
  ): void {
    const from = out.n;
    this.hosts.lookup(dest, s, out);
    this.keep(from, method, text, b, out);
  }

  /** lookup for the plain hostname in chars[0, end), as scanRequest left it. */
  lookupHost(
    chars: Uint16Array,
    end: number,
    port: number,
    method: number,
    text: string,
    b: PathBounds,
    out: Hits,
  ): void {
    const from = out.n;
    this.hosts.lookupHost(chars, end, port, out);
    this.keep(from, method, text, b, out);
  }

  private keep(from: number, method: number, text: string, b: PathBounds, out: Hits): void {
    const ids = out.ids;
    const paths = this.paths;
    const methods = this.methods;
    let kept = from;
    for (let i = from; i < out.n; i++) {
      const id = ids[i]!;
      if ((methods[id]! & method) !== 0 && matchHttpPath(paths[id]!, text, b)) ids[kept++] = id;
    }
    out.n = kept;
  }
}
