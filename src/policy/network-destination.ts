// Destinations of requests: `host`, `host:port`, `[v6]:port`, a bare IP, or a URL (the scheme's
// default port); no port is port 443 (decisions §4). The common case (a lower-case hostname with an
// optional port) is read in one scan without allocation. Pure: no IO.

import { ValidationError } from '../errors.js';
import { Ascii } from './ascii.js';
import { parseIPv4 } from './ip.js';
import { parseHost, splitHostPort } from './network.js';

export interface NetworkDestination {
  /** Lower-case hostname without trailing dot, or the canonical text of an IP. */
  readonly host: string;
  readonly port: number;
  /** 0 for a hostname, 4 or 6 for an IP literal (IPv4-mapped IPv6 is 4). */
  readonly family: 0 | 4 | 6;
  readonly v4: number;
  readonly v6: readonly number[] | null;
}

/**
 * A scanned plain destination, packed in one number so that a scan allocates nothing: the port in
 * the high bits, the end of the host (at most 254 characters) in the low 8.
 */
export function packScanned(port: number, hostEnd: number): number {
  return (port << 8) | hostEnd;
}
/** The end of the host in a packed scan. */
export function scannedEnd(scanned: number): number {
  return scanned & 0xff;
}
/** The port in a packed scan. */
export function scannedPort(scanned: number): number {
  return scanned >>> 8;
}

export const DESTINATION_FORMS = 'host, host:port, [IPv6]:port or a URL (https://host/path)';

function badDestination(value: string, problem: string): ValidationError {
  return new ValidationError(
    `invalid network destination "${value}": ${problem}; a destination is ${DESTINATION_FORMS}`,
  );
}

const DEFAULT_PORTS: Readonly<Record<string, number>> = {
  http: 80,
  https: 443,
  ws: 80,
  wss: 443,
  ftp: 21,
  ssh: 22,
  git: 9418,
  ldap: 389,
  ldaps: 636,
  redis: 6379,
  postgres: 5432,
  postgresql: 5432,
  mysql: 3306,
  mongodb: 27017,
  amqp: 5672,
  amqps: 5671,
  smtp: 25,
};

/** Port checked when a destination names none (decisions §4). */
export const DEFAULT_PORT = 443;

/**
 * Parses a request's destination: `host`, `host:port`, `[v6]:port`, a bare IP, or a URL (the
 * scheme's default port). No port → 443. Throws ValidationError naming the value.
 */
export function parseNetworkDestination(value: string, scratch = new HostScratch()): NetworkDestination {
  return destinationOf(value, scanDestination(scratch.chars, value));
}

/** scanHostChars of a destination string (-1 when it is too long to be a plain hostname). */
export function scanDestination(chars: Uint16Array, value: string): number {
  return loadHostChars(chars, value) ? scanHostChars(chars, value.length) : -1;
}

/** The parsed destination `value`, given what scanDestination(value) returned. */
export function destinationOf(value: string, scanned: number): NetworkDestination {
  if (scanned >= 0) {
    const end = scannedEnd(scanned);
    return { host: value.slice(0, end), port: scannedPort(scanned), family: 0, v4: 0, v6: null };
  }
  if (scanned === DOTTED_QUAD) {
    const colon = value.indexOf(':');
    const host = colon < 0 ? value : value.slice(0, colon);
    const v4 = parseIPv4(host);
    // a strict dotted quad is already in canonical form
    if (v4 >= 0) {
      const port = colon < 0 ? DEFAULT_PORT : Number(value.slice(colon + 1));
      return { host, port, family: 4, v4, v6: null };
    }
  }
  return parseSlow(value);
}

/**
 * The scratch of the destination being read, owned by whoever decides (a compiled set owns one), so
 * that no state outlives a call in a module and two sets never share a buffer.
 */
export class HostScratch {
  /**
   * The characters of the destination, as UTF-16 code units: filled from a string or, by `policy
   * eval --batch`, straight from the input bytes as it scans them, so that scanning and the name
   * lookup have one implementation and a batch line needs no string. Longer than any valid
   * destination.
   */
  readonly chars = new Uint16Array(256);
  /** Where v4OfHostChars puts what it read: the address (as an int32) and the port; never boxed. */
  readonly v4Read = new Int32Array(2);
}

/** Fills `chars` with `value`; false when it is longer than a destination can be. */
export function loadHostChars(chars: Uint16Array, value: string): boolean {
  const n = value.length;
  if (n > 254) return false;
  for (let i = 0; i < n; i++) chars[i] = value.charCodeAt(i);
  return true;
}

/** What scanHostChars returns for digits and dots with an optional valid port: maybe an IPv4. */
export const DOTTED_QUAD = -2;

/**
 * Reads the strict dotted-quad IPv4 address in s.chars[0, n) and its port (443 when none) into
 * s.v4Read, after scanHostChars returned DOTTED_QUAD; false when the digits and dots are not such an
 * address, which the general parser then reads.
 */
export function v4OfHostChars(s: HostScratch, n: number): boolean {
  const v = s.chars;
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  let i = 0;
  // the grammar of parseIPv4, on the chars
  for (; i < n; i++) {
    const c = v[i]!;
    if (c >= Ascii.Zero && c <= Ascii.Nine) {
      if (digits > 0 && part === 0) return false; // a leading zero
      part = part * 10 + (c - Ascii.Zero);
      if (++digits > 3 || part > 255) return false;
    } else if (c === Ascii.Dot) {
      if (digits === 0 || ++dots > 3) return false;
      value = value * 256 + part;
      part = 0;
      digits = 0;
    } else break;
  }
  if (digits === 0 || dots !== 3) return false;
  // scanHostChars checked that a colon is followed by a valid port, and nothing else can follow
  let port = i < n ? 0 : DEFAULT_PORT;
  for (let j = i + 1; j < n; j++) port = port * 10 + (v[j]! - Ascii.Zero);
  s.v4Read[0] = value * 256 + part;
  s.v4Read[1] = port;
  return true;
}

/**
 * The common case of a batch read in one scan of chars[0, n): a lower-case hostname with an
 * optional `:port` (no port: 443). Returns `port << 8 | end of the host` (a trailing dot excluded),
 * DOTTED_QUAD for digits and dots, or -1 for anything else, which the general parser reads.
 */
export function scanHostChars(chars: Uint16Array, n: number): number {
  const v = chars;
  let i = 0;
  let c = 0;
  let digitsDots = true;
  let labelStart = 0;
  let prevStart = 0;
  if (n === 0 || n > 254) return -1;
  for (; i < n; i++) {
    c = v[i]!;
    if (c === Ascii.Dot) {
      const len = i - labelStart;
      if (len === 0 || len > 63 || v[i - 1] === Ascii.Hyphen) return -1;
      prevStart = labelStart;
      labelStart = i + 1;
    } else if ((c >= Ascii.LowerA && c <= Ascii.LowerZ) || c === Ascii.Underscore) {
      digitsDots = false;
    } else if (c === Ascii.Hyphen) {
      digitsDots = false;
      if (i === labelStart) return -1;
    } else if (c < Ascii.Zero || c > Ascii.Nine) {
      break;
    }
  }
  if (i === 0 || (i < n && c !== Ascii.Colon)) return -1;
  // the last label: empty only for one trailing dot
  const last = i - labelStart;
  if (last > 63 || (last > 0 && v[i - 1] === Ascii.Hyphen)) return -1;
  if (last === 0 && (i < 2 || v[i - 2] === Ascii.Dot)) return -1;
  let port = DEFAULT_PORT;
  if (i < n) {
    let p = 0;
    let j = i + 1;
    if (j === n || n - j > 5) return -1;
    for (; j < n; j++) {
      const d = v[j]!;
      if (d < Ascii.Zero || d > Ascii.Nine) return -1;
      p = p * 10 + (d - 48);
    }
    if (p < 1 || p > 65535) return -1;
    port = p;
  }
  if (digitsDots) return DOTTED_QUAD;
  // a last label starting with a digit may end in a number (`0x7f000001`, `a.1`): URL parsers
  // then read an IPv4 address, so the general parser decides it
  const lastFirst = v[last === 0 ? prevStart : labelStart]!;
  if (lastFirst >= Ascii.Zero && lastFirst <= Ascii.Nine) return -1;
  const end = last === 0 ? i - 1 : i;
  if (end > 253) return -1;
  return packScanned(port, end);
}

function parseSlow(value: string): NetworkDestination {
  const s = value;
  if (s === '') throw badDestination(value, 'it is empty');
  if (/[\s\x00-\x1f\x7f]/.test(s))
    throw badDestination(value, 'it contains whitespace or a control character');
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(s);
  if (scheme) return parseUrl(value, scheme[1]!.toLowerCase());
  if (s.includes('\\')) throw badDestination(value, 'a backslash is not allowed');
  if (s.includes('/')) throw badDestination(value, 'a path needs a URL with a scheme (https://host/path)');
  if (s.includes('*')) throw badDestination(value, 'a destination names one host; wildcards are for rules');
  if (s.includes('@')) throw badDestination(value, 'user names ("user@") need a URL');
  const hp = splitHostPort(s);
  if (typeof hp === 'string') throw badDestination(value, hp);
  return hostDestination(value, hp.host, hp.bracketed, hp.port === 0 ? DEFAULT_PORT : hp.port);
}

/**
 * A destination given as a URL, split by the WHATWG URL rules (Node's URL): the host is the one a
 * browser, curl's URL API and Node would connect to, user info is ignored, special schemes have their
 * numeric hosts, percent-encoding and IDNs already read. A backslash is refused: URL parsers split
 * `https://a\@b/` at different places.
 */
function parseUrl(value: string, scheme: string): NetworkDestination {
  if (value.includes('\\')) {
    throw badDestination(value, 'a backslash in a URL is read as "/" by some URL parsers and not by others');
  }
  if (/^[^:]*:\/\/(?:[/?#]|$)/.test(value)) throw badDestination(value, 'the URL has no host');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw badDestination(value, 'it is not a valid URL');
  }
  const host = url.hostname;
  if (host === '') throw badDestination(value, 'the URL has no host');
  const port = url.port === '' ? DEFAULT_PORTS[scheme] : Number(url.port);
  if (port === undefined) {
    throw badDestination(value, `the scheme "${scheme}" has no default port hubctl knows; add :port`);
  }
  if (port === 0) throw badDestination(value, 'port 0 is not a destination');
  if (host.startsWith('[')) return hostDestination(value, host.slice(1, -1), true, port);
  // the opaque host of a non-special scheme (ssh://) keeps its percent-encoding
  if (host.includes('%')) throw badDestination(value, 'a percent-encoded host is not allowed');
  return hostDestination(value, host, false, port);
}

/** A destination's host (an IP in any numeric form parsers read, or a hostname) and port. */
function hostDestination(value: string, raw: string, bracketed: boolean, port: number): NetworkDestination {
  const hv = parseHost(raw, true);
  if (typeof hv === 'string') throw badDestination(value, hv);
  if (hv.family === 0 && bracketed) throw badDestination(value, 'brackets are only for IPv6 addresses');
  if (hv.family === 0) return { host: hv.host, port, family: 0, v4: 0, v6: null };
  if (hv.family === 4) return { host: hv.host, port, family: 4, v4: hv.v4, v6: null };
  return { host: hv.host, port, family: 6, v4: 0, v6: hv.v6 };
}
