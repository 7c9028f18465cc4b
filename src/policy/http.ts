// HTTP (L7) rules, evaluated offline (issue 14): a rule's `{host, port?, path}` and a request's URL.
// A request is decided over the network rules of its connection (`connect:tcp` to host:port) and the
// HTTP rules of its method together, deny winning: so a network allow alone allows every method, an
// HTTP allow alone only what it matches, an HTTP deny carves out of a network allow, and no HTTP allow
// reopens a network deny. In a path `*` is one segment, `**` any depth (none included); a path
// without wildcard matches exactly. Pure: no IO.
import { ValidationError } from '../errors.js';
import type { Hits } from './bucket.js';
import type { HttpResource } from './model.js';
import { type NetworkPattern, parseNetworkResource } from './network.js';
import { type NetworkDestination, parseNetworkDestination } from './network-destination.js';
import { NetworkIndex } from './network-index.js';
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
  readonly segments: readonly string[];
}

export const REQUEST_FORM = 'an http:// or https:// URL with a canonical path (https://api.example.com/a/b)';

function segmentsOf(path: string): string[] {
  return path === '/' ? [] : path.slice(1).split('/');
}

/** Compiles one HTTP resource (already validated by validateHttpResource). */
export function parseHttpPattern(r: HttpResource): HttpPattern {
  const host = parseNetworkResource(r.host);
  const port = r.port ?? 0;
  const canonical = port === 0 ? host.canonical : `${host.canonical}:${port}`;
  return Object.freeze({
    host: Object.freeze({ ...host, port, canonical }),
    segments: Object.freeze(segmentsOf(r.path)),
    path: r.path,
  });
}

function badRequest(value: string, problem: string): ValidationError {
  return new ValidationError(`invalid HTTP request "${value}": ${problem}; a request is ${REQUEST_FORM}`);
}

/**
 * Parses the URL of an HTTP request: the host and port by the WHATWG rules (as any network
 * destination), the path as written, which must be canonical: no query, fragment, percent-encoding,
 * `.` or `..`, repeated or trailing slash, nothing outside printable ASCII. Anything else is refused,
 * since servers and proxies normalize such paths differently.
 */
export function parseHttpRequest(value: string): HttpRequest {
  const scheme = /^https?:\/\//i.exec(value);
  if (scheme === null) throw badRequest(value, 'it is not an http:// or https:// URL');
  const dest = parseNetworkDestination(value);
  const rest = value.slice(scheme[0].length);
  const end = rest.search(/[/?#]/);
  const raw = end < 0 ? '/' : rest.slice(end);
  const path = raw.startsWith('/') ? raw : `/${raw}`;
  const problem = /[^\x21-\x7e]/.test(path)
    ? 'a path is printable ASCII (percent-encoding is not evaluated)'
    : httpPathProblem(path, false);
  if (problem !== null) throw badRequest(value, problem);
  return { dest, path, segments: segmentsOf(path) };
}

/**
 * Does the pattern's segments match the request's? `*` is one segment, `**` any number (none
 * included); the last `**` seen is the one that takes more, so this is linear in practice.
 */
export function matchHttpPath(p: readonly string[], s: readonly string[]): boolean {
  let i = 0;
  let j = 0;
  let star = -1;
  let mark = 0;
  while (j < s.length) {
    const seg = i < p.length ? p[i]! : null;
    if (seg !== null && seg !== '**' && (seg === '*' || seg === s[j])) {
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

/** The HTTP rules of one method: hosts in a network index, then each hit's path checked. */
export class HttpIndex {
  private readonly hosts = new NetworkIndex();
  /** The path segments of each entry added, by entry id. */
  private readonly paths = new Map<number, readonly string[]>();

  add(p: HttpPattern, id: number): void {
    this.hosts.add(p.host, id);
    this.paths.set(id, p.segments);
  }

  /** Adds the ids of the entries whose host, port and path match the request. */
  lookup(req: HttpRequest, out: Hits): void {
    const from = out.n;
    this.hosts.lookup(req.dest, out);
    const ids = out.ids;
    let kept = from;
    for (let i = from; i < out.n; i++) {
      const id = ids[i]!;
      if (matchHttpPath(this.paths.get(id)!, req.segments)) ids[kept++] = id;
    }
    out.n = kept;
  }
}
