// Network resources of rules (`example.com`, `*.example.com`, `**.example.com`, `**`, `host:port`,
// IPs, CIDRs), parsed into small immutable values (decisions §4), and the host grammar that
// destinations (network-destination.ts) share. Pure: no IO.

import { ValidationError } from '../errors.js';
import { Ascii } from './ascii.js';
import {
  embedsIPv4,
  endsInNumber,
  formatIPv4,
  formatIPv6,
  mappedIPv4,
  maskV4,
  maskV6,
  parseIPv4,
  parseIPv6,
  parseLooseIPv4,
} from './ip.js';

/** Port 0 on a pattern means "any port". */
export type NetworkPattern =
  | { readonly kind: 'host'; readonly host: string; readonly port: number; readonly canonical: string }
  | {
      readonly kind: 'one' | 'many';
      /** The part after `*.` / `**.`, e.g. `example.com`. */
      readonly suffix: string;
      readonly port: number;
      readonly canonical: string;
    }
  | { readonly kind: 'any'; readonly port: number; readonly canonical: string }
  | {
      readonly kind: 'cidr';
      readonly family: 4 | 6;
      /** IPv4 network address (family 4). */
      readonly v4: number;
      /** IPv6 network address as eight 16-bit groups (family 6). */
      readonly v6: readonly number[] | null;
      readonly prefix: number;
      readonly port: number;
      readonly canonical: string;
    };

export const NETWORK_FORMS =
  'a hostname (example.com), *.example.com (one label), **.example.com (any depth), ** (every host), ' +
  'any of these with :port, an IP address (10.1.2.3, 2001:db8::1, [2001:db8::1]:22) or a CIDR ' +
  '(10.0.0.0/8, 2001:db8::/32)';

function badResource(value: string, problem: string): ValidationError {
  return new ValidationError(`invalid network resource "${value}": ${problem}; allowed: ${NETWORK_FORMS}`);
}

/**
 * Why h (lower case, no trailing dot) is not a hostname, or null when it is one: labels of 1–63
 * letters, digits, `-` or `_`, not starting or ending with `-`, 253 characters at most.
 */
export function hostnameProblem(h: string, start = 0): string | null {
  const end = h.length;
  if (end - start === 0) return 'the host is empty';
  if (end - start > 253) return 'a hostname has at most 253 characters';
  let labelStart = start;
  for (let i = start; i <= end; i++) {
    const c = i === end ? Ascii.Dot : h.charCodeAt(i);
    if (c === Ascii.Dot) {
      const len = i - labelStart;
      if (len === 0) return i === end ? 'it ends with an empty label' : 'it has an empty label ("..")';
      if (len > 63) return 'a label has at most 63 characters';
      if (h.charCodeAt(labelStart) === Ascii.Hyphen || h.charCodeAt(i - 1) === Ascii.Hyphen) {
        return 'a label cannot start or end with "-"';
      }
      labelStart = i + 1;
    } else if (
      !(
        (c >= Ascii.LowerA && c <= Ascii.LowerZ) ||
        (c >= Ascii.Zero && c <= Ascii.Nine) ||
        c === Ascii.Hyphen ||
        c === Ascii.Underscore
      )
    ) {
      const ch = h[i]!;
      if (ch === '*') return 'a wildcard is allowed only as the whole first label';
      if (c > Ascii.Delete)
        return `"${ch}" is not allowed; write internationalized names in punycode (xn--…)`;
      return `the character "${ch}" is not allowed in a hostname`;
    }
  }
  return null;
}

/** Port text → 1–65535, or a problem string. */
export function parsePort(text: string): number | string {
  if (text === '') return 'the port is empty';
  if (text.length > 5 || !/^[0-9]+$/.test(text)) return `port "${text}" is not a number from 1 to 65535`;
  const n = Number(text);
  if (n < 1 || n > 65535) return `port ${n} is outside 1–65535`;
  return n;
}

export function lowerHost(h: string): string {
  let out = h.toLowerCase();
  if (out.length > 1 && out.charCodeAt(out.length - 1) === Ascii.Dot) out = out.slice(0, -1);
  return out;
}

export type HostValue =
  | { family: 0; host: string }
  | { family: 4; v4: number; host: string }
  | { family: 6; v6: number[]; host: string };

/**
 * A host (no port): IPv4, IPv6 (unbracketed), or a hostname. Returns a problem string on error. A
 * host that ends in a number is an IPv4 address (the WHATWG URL rules, which resolvers share): in
 * the dotted-quad form always; in another numeric form (`0xa9fea9fe`, `127.1`) only when `loose`
 * (a destination), since a rule written so may be read as a hostname by the service.
 */
export function parseHost(raw: string, loose = false): HostValue | string {
  if (raw.includes(':')) {
    const g = parseIPv6(raw);
    if (!g)
      return raw.includes('%') ? 'zone ids (%…) are not allowed' : `"${raw}" is not a valid IPv6 address`;
    // ::ffff:a.b.c.d, ::a.b.c.d and 64:ff9b::a.b.c.d reach the IPv4 address: decided as it.
    if (embedsIPv4(g)) {
      const v4 = mappedIPv4(g);
      return { family: 4, v4, host: formatIPv4(v4) };
    }
    return { family: 6, v6: g, host: formatIPv6(g) };
  }
  const host = lowerHost(raw);
  if (endsInNumber(host)) {
    const strict = parseIPv4(host);
    if (strict >= 0) return { family: 4, v4: strict, host: formatIPv4(strict) };
    const v4 = parseLooseIPv4(host);
    if (v4 < 0)
      return `"${raw}" is not a valid IPv4 address (it ends in a number, so URL parsers read it as one)`;
    if (loose) return { family: 4, v4, host: formatIPv4(v4) };
    const text = formatIPv4(v4);
    return `"${raw}" is not a valid IPv4 address as written: URL parsers and resolvers read it as ${text}, a service may read it as a name; write ${text}`;
  }
  const problem = hostnameProblem(host);
  if (problem) return problem;
  return { family: 0, host };
}

/** Splits `host:port`, `[v6]:port`, `[v6]`, bare IPv6 and `host`. Port 0 when absent. */
export function splitHostPort(s: string): { host: string; port: number; bracketed: boolean } | string {
  if (s.startsWith('[')) {
    const close = s.indexOf(']');
    if (close < 0) return 'a "[" without its "]"';
    const host = s.slice(1, close);
    const rest = s.slice(close + 1);
    if (!host.includes(':')) return 'brackets are only for IPv6 addresses';
    if (rest === '') return { host, port: 0, bracketed: true };
    if (!rest.startsWith(':')) return `unexpected "${rest}" after "]"`;
    const port = parsePort(rest.slice(1));
    if (typeof port === 'string') return port;
    return { host, port, bracketed: true };
  }
  const first = s.indexOf(':');
  if (first < 0) return { host: s, port: 0, bracketed: false };
  if (s.indexOf(':', first + 1) >= 0) return { host: s, port: 0, bracketed: false }; // bare IPv6
  const port = parsePort(s.slice(first + 1));
  if (typeof port === 'string') return port;
  return { host: s.slice(0, first), port, bracketed: false };
}

function withPort(text: string, port: number): string {
  return port === 0 ? text : `${text}:${port}`;
}

/** Parses one network resource of a rule; throws ValidationError naming it and the allowed forms. */
export function parseNetworkResource(value: string): NetworkPattern {
  const s = value;
  if (s === '') throw badResource(s, 'it is empty');
  if (/\s/.test(s)) throw badResource(s, 'it contains whitespace');
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\//.exec(s);
  if (scheme) throw badResource(s, `a resource names a host, not a URL: drop "${scheme[0]}" and any path`);
  if (s.includes('@')) throw badResource(s, 'user names ("user@") are not allowed');

  const slash = s.indexOf('/');
  if (slash >= 0) {
    const addr = s.slice(0, slash);
    const len = s.slice(slash + 1);
    const looksIp = addr.includes(':') || endsInNumber(addr.toLowerCase());
    if (!looksIp || len.includes('/'))
      throw badResource(s, 'a resource has no path ("/…") unless it is a CIDR');
    if (!/^[0-9]{1,3}$/.test(len)) throw badResource(s, `CIDR prefix length "${len}" is not a number`);
    const prefix = Number(len);
    if (addr.includes(':')) {
      const g = parseIPv6(addr);
      if (!g) throw badResource(s, `"${addr}" is not a valid IPv6 address`);
      if (prefix > 128) throw badResource(s, `an IPv6 prefix length is 0–128, not ${prefix}`);
      // A range of addresses that embed IPv4 is that IPv4 range; embedsIPv4 of the network keeps
      // a range holding `::` or `::1` (IPv6's own) IPv6.
      if (prefix >= 96 && embedsIPv4(g)) return cidr4(s, mappedIPv4(g), prefix - 96, `…/${prefix}`);
      const masked = maskV6(g, prefix);
      if (masked.some((x, k) => x !== g[k])) {
        throw badResource(s, `host bits are set; the network is ${formatIPv6(masked)}/${prefix}`);
      }
      return Object.freeze({
        kind: 'cidr',
        family: 6,
        v4: 0,
        v6: Object.freeze(masked),
        prefix,
        port: 0,
        canonical: `${formatIPv6(masked)}/${prefix}`,
      });
    }
    const v4 = parseIPv4(addr);
    if (v4 < 0) {
      const hv = parseHost(addr);
      throw badResource(s, typeof hv === 'string' ? hv : `"${addr}" is not a valid IPv4 address`);
    }
    if (prefix > 32) throw badResource(s, `an IPv4 prefix length is 0–32, not ${prefix}`);
    return cidr4(s, v4, prefix, null);
  }

  const hp = splitHostPort(s);
  if (typeof hp === 'string') throw badResource(s, hp);
  const { host: rawHost, port } = hp;

  if (rawHost.includes('*')) {
    if (hp.bracketed) throw badResource(s, 'a wildcard is not an IPv6 address');
    if (rawHost === '**') return Object.freeze({ kind: 'any', port, canonical: withPort('**', port) });
    let kind: 'one' | 'many';
    let rest: string;
    if (rawHost.startsWith('**.')) {
      kind = 'many';
      rest = rawHost.slice(3);
    } else if (rawHost.startsWith('*.')) {
      kind = 'one';
      rest = rawHost.slice(2);
    } else if (rawHost === '*') {
      throw badResource(s, '"*" alone is not a pattern; use "**" for every host or "*.example.com"');
    } else {
      throw badResource(s, 'a wildcard is allowed only as the whole first label ("*." or "**.")');
    }
    if (rest.includes('*')) throw badResource(s, 'a wildcard is allowed only as the whole first label');
    const suffix = lowerHost(rest);
    if (endsInNumber(suffix)) throw badResource(s, 'a wildcard pattern names a domain, not an IP address');
    const problem = hostnameProblem(suffix);
    if (problem) throw badResource(s, problem);
    const prefix = kind === 'one' ? '*.' : '**.';
    return Object.freeze({ kind, suffix, port, canonical: withPort(prefix + suffix, port) });
  }

  const hv = parseHost(rawHost);
  if (typeof hv === 'string') throw badResource(s, hv);
  if (hv.family === 0) {
    if (hp.bracketed) throw badResource(s, 'brackets are only for IPv6 addresses');
    return Object.freeze({ kind: 'host', host: hv.host, port, canonical: withPort(hv.host, port) });
  }
  if (hv.family === 4) {
    return Object.freeze({
      kind: 'cidr',
      family: 4,
      v4: hv.v4,
      v6: null,
      prefix: 32,
      port,
      canonical: withPort(hv.host, port),
    });
  }
  return Object.freeze({
    kind: 'cidr',
    family: 6,
    v4: 0,
    v6: Object.freeze(hv.v6),
    prefix: 128,
    port,
    canonical: port === 0 ? hv.host : `[${hv.host}]:${port}`,
  });
}

function cidr4(s: string, v4: number, prefix: number, mapped: string | null): NetworkPattern {
  const masked = maskV4(v4, prefix);
  if (masked !== v4) {
    const shown = mapped ? `${formatIPv4(masked)}/${prefix} (as IPv4)` : `${formatIPv4(masked)}/${prefix}`;
    throw badResource(s, `host bits are set; the network is ${shown}`);
  }
  return Object.freeze({
    kind: 'cidr',
    family: 4,
    v4: masked,
    v6: null,
    prefix,
    port: 0,
    canonical: prefix === 32 ? formatIPv4(masked) : `${formatIPv4(masked)}/${prefix}`,
  });
}
