// IP literals, parsed by hand so the hot path allocates nothing for IPv4 and the grammar is exactly
// ours (no zone ids). The numeric IPv4 forms that resolvers and URL parsers also read (hex, octal,
// short and integer forms) are recognized by the WHATWG URL rules, so that they are decided as the
// address they name, never as a hostname. Pure: no IO.

import { Ascii } from './ascii.js';

/** Strict dotted-quad IPv4 (`10.1.2.3`) in s[start, end) → unsigned 32-bit value, or -1. */
export function parseIPv4(s: string, start = 0, end: number = s.length): number {
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  let leadingZero = false;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c >= Ascii.Zero && c <= Ascii.Nine) {
      if (digits === 0) leadingZero = c === Ascii.Zero;
      else if (leadingZero) return -1;
      part = part * 10 + (c - Ascii.Zero);
      if (++digits > 3 || part > 255) return -1;
    } else if (c === Ascii.Dot) {
      if (digits === 0 || ++dots > 3) return -1;
      value = value * 256 + part;
      part = 0;
      digits = 0;
    } else {
      return -1;
    }
  }
  if (digits === 0 || dots !== 3) return -1;
  return value * 256 + part;
}

/** The bit that makes an ASCII letter lower case. */
const LOWER_CASE = 0x20;

/**
 * The WHATWG URL "IPv4 number" of s[start, end): `0x…` hex, `0…` octal, else decimal; `0x` alone is
 * 0. Returns -1 when it is not such a number (empty, or a digit outside the radix).
 */
function ipv4Number(s: string, start: number, end: number): number {
  if (start === end) return -1;
  let radix = 10;
  let i = start;
  if (end - i >= 2 && s.charCodeAt(i) === Ascii.Zero && (s.charCodeAt(i + 1) | LOWER_CASE) === Ascii.LowerX) {
    radix = 16;
    i += 2;
  } else if (end - i >= 2 && s.charCodeAt(i) === Ascii.Zero) {
    radix = 8;
    i += 1;
  }
  let v = 0;
  for (; i < end; i++) {
    const d = hexValue(s.charCodeAt(i));
    if (d < 0 || d >= radix) return -1;
    // past 2^32 the exact value no longer matters: it is refused either way
    v = Math.min(v * radix + d, 2 ** 33);
  }
  return v;
}

/**
 * True when a host (lower case, one trailing dot allowed) ends in a number by the WHATWG URL rules
 * (`127.1`, `0x7f000001`, `foo.0x1`): URL parsers then read it as IPv4, and fail if it is none.
 */
export function endsInNumber(host: string): boolean {
  let end = host.length;
  if (end > 1 && host.charCodeAt(end - 1) === Ascii.Dot) end--;
  const start = host.lastIndexOf('.', end - 1) + 1;
  if (start === end) return false;
  let digits = true;
  for (let i = start; i < end && digits; i++) {
    const c = host.charCodeAt(i);
    digits = c >= Ascii.Zero && c <= Ascii.Nine;
  }
  return digits || ipv4Number(host, start, end) >= 0;
}

/**
 * The IPv4 address of a host that ends in a number, read as the WHATWG URL parser (and inet_aton)
 * reads it: one to four parts, each hex, octal or decimal, the last filling the remaining bytes
 * (`127.1`, `169.254.43518`, `2852039166`, `0xa9.0xfe.0xa9.0xfe`, `0251.0376.0251.0376`). Returns
 * the unsigned 32-bit value, or -1 when URL parsers refuse the host.
 */
export function parseLooseIPv4(host: string): number {
  let end = host.length;
  if (end > 1 && host.charCodeAt(end - 1) === Ascii.Dot) end--;
  const parts: number[] = [];
  let start = 0;
  for (let i = 0; i <= end; i++) {
    if (i < end && host.charCodeAt(i) !== Ascii.Dot) continue;
    if (parts.length === 4) return -1;
    const n = ipv4Number(host, start, i);
    if (n < 0) return -1;
    parts.push(n);
    start = i + 1;
  }
  const last = parts.length - 1;
  let value = 0;
  for (let k = 0; k < last; k++) {
    if (parts[k]! > 255) return -1;
    value += parts[k]! * 256 ** (3 - k);
  }
  if (parts[last]! >= 256 ** (4 - last)) return -1;
  return value + parts[last]!;
}

export function formatIPv4(v: number): string {
  return `${(v >>> 24) & 255}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;
}

function hexValue(c: number): number {
  if (c >= Ascii.Zero && c <= Ascii.Nine) return c - Ascii.Zero;
  if (c >= Ascii.LowerA && c <= Ascii.LowerF) return c - Ascii.LowerA + 10;
  if (c >= Ascii.UpperA && c <= Ascii.UpperF) return c - Ascii.UpperA + 10;
  return -1;
}

/**
 * IPv6 text (RFC 4291 §2.2: hex groups, one `::`, an optional trailing dotted IPv4) in s[start, end)
 * → eight 16-bit groups, or null. Zone ids (`%eth0`) are refused.
 */
export function parseIPv6(s: string, start = 0, end: number = s.length): number[] | null {
  const head: number[] = [];
  const tail: number[] = [];
  let cur = head;
  let seenDouble = false;
  let i = start;
  if (end - start < 2) return null;
  if (s.charCodeAt(i) === Ascii.Colon) {
    if (s.charCodeAt(i + 1) !== Ascii.Colon) return null;
    seenDouble = true;
    cur = tail;
    i += 2;
    if (i === end) return [0, 0, 0, 0, 0, 0, 0, 0];
  }
  while (i < end) {
    // one group: hex digits, or a dotted IPv4 in the last 32 bits
    let j = i;
    let v = 0;
    while (j < end && j - i < 5) {
      const h = hexValue(s.charCodeAt(j));
      if (h < 0) break;
      v = v * 16 + h;
      j++;
    }
    if (j < end && s.charCodeAt(j) === Ascii.Dot) {
      const v4 = parseIPv4(s, i, end);
      if (v4 < 0) return null;
      cur.push((v4 >>> 16) & 0xffff, v4 & 0xffff);
      i = end;
      break;
    }
    if (j === i || j - i > 4) return null;
    cur.push(v);
    i = j;
    if (i === end) break;
    if (s.charCodeAt(i) !== Ascii.Colon) return null;
    i++;
    if (i < end && s.charCodeAt(i) === Ascii.Colon) {
      if (seenDouble) return null;
      seenDouble = true;
      cur = tail;
      i++;
      if (i === end) break;
    } else if (i === end) {
      return null; // trailing single colon
    }
  }
  const total = head.length + tail.length;
  if (seenDouble ? total > 7 : total !== 8) return null;
  if (!seenDouble) return head;
  const res = head;
  for (let k = total; k < 8; k++) res.push(0);
  for (const t of tail) res.push(t);
  return res;
}

/** True for ::ffff:a.b.c.d (IPv4-mapped IPv6, RFC 4291 §2.5.5.2). */
export function isIPv4Mapped(g: readonly number[]): boolean {
  return g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0 && g[5] === 0xffff;
}

/**
 * True when the first 96 bits are a prefix under which an IPv6 address carries an IPv4 address in
 * its last 32 bits, which a host may then reach: `::ffff:0:0/96` (IPv4-mapped), `::/96`
 * (IPv4-compatible, RFC 4291 §2.5.5.1, deprecated but still read) and `64:ff9b::/96` (the NAT64
 * well-known prefix, RFC 6052). `::` and `::1` are under `::/96` too: see embedsIPv4.
 */
export function hasIPv4Prefix96(g: readonly number[]): boolean {
  if (g[2] !== 0 || g[3] !== 0 || g[4] !== 0) return false;
  if (g[0] === 0 && g[1] === 0) return g[5] === 0xffff || g[5] === 0;
  return g[0] === 0x64 && g[1] === 0xff9b && g[5] === 0;
}

/**
 * True for an IPv6 address decided as the IPv4 address in its last 32 bits: one under
 * hasIPv4Prefix96, except `::` (unspecified) and `::1` (loopback), which are IPv6's own.
 */
export function embedsIPv4(g: readonly number[]): boolean {
  return hasIPv4Prefix96(g) && !(g[0] === 0 && g[5] === 0 && g[6] === 0 && g[7]! <= 1);
}

export function mappedIPv4(g: readonly number[]): number {
  return (g[6]! * 65536 + g[7]!) >>> 0;
}

/** RFC 5952 text: lower case, the longest run (≥ 2) of zero groups written as `::`. */
export function formatIPv6(g: readonly number[]): string {
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = (k: number) => g[k]!.toString(16);
  if (bestStart < 0) return g.map((_, k) => hex(k)).join(':');
  const left = [];
  for (let k = 0; k < bestStart; k++) left.push(hex(k));
  const right = [];
  for (let k = bestStart + bestLen; k < 8; k++) right.push(hex(k));
  return `${left.join(':')}::${right.join(':')}`;
}

/** Bit i (0 = most significant) of an IPv4 value. */
export function bitV4(v: number, i: number): number {
  return (v >>> (31 - i)) & 1;
}

/** Bit i (0 = most significant) of eight IPv6 groups. */
export function bitV6(g: readonly number[], i: number): number {
  return (g[i >>> 4]! >>> (15 - (i & 15))) & 1;
}

/** The IPv4 value with everything after `prefix` bits cleared. */
export function maskV4(v: number, prefix: number): number {
  if (prefix === 0) return 0;
  return (v & (0xffffffff << (32 - prefix))) >>> 0;
}

export function maskV6(g: readonly number[], prefix: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < 8; k++) {
    const bits = Math.max(0, Math.min(16, prefix - k * 16));
    out.push(bits === 0 ? 0 : g[k]! & ((0xffff << (16 - bits)) & 0xffff));
  }
  return out;
}
