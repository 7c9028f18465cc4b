// IP literals, parsed by hand so the hot path allocates nothing for IPv4 and the grammar is exactly
// ours (no zone ids, no octal or short IPv4 forms). Pure: no IO.

/** Strict dotted-quad IPv4 (`10.1.2.3`) in s[start, end) → unsigned 32-bit value, or -1. */
export function parseIPv4(s: string, start = 0, end: number = s.length): number {
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  let leadingZero = false;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (digits === 0) leadingZero = c === 48;
      else if (leadingZero) return -1;
      part = part * 10 + (c - 48);
      if (++digits > 3 || part > 255) return -1;
    } else if (c === 46) {
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

export function formatIPv4(v: number): string {
  return `${(v >>> 24) & 255}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
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
  if (s.charCodeAt(i) === 58) {
    if (s.charCodeAt(i + 1) !== 58) return null;
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
    if (j < end && s.charCodeAt(j) === 46) {
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
    if (s.charCodeAt(i) !== 58) return null;
    i++;
    if (i < end && s.charCodeAt(i) === 58) {
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
