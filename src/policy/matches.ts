// What a network pattern means, in plain code (decisions §4): the one reading that lint's "covers",
// `--explain` and the tests' property checks share. The fast tables (network-index.ts, tables/)
// decide the same thing with hashing and must agree with it (test/policy/matches.test.ts). Pure.
import { maskV4, maskV6 } from './ip.js';
import type { NetworkPattern } from './network.js';
import type { NetworkDestination } from './network-destination.js';

/** Is `host` one or more labels below `suffix` (`a.b.example.com` below `example.com`)? Never the apex. */
export function isBelow(host: string, suffix: string): boolean {
  return host.length > suffix.length + 1 && host.endsWith(`.${suffix}`);
}

/** Is `host` exactly one label below `suffix` (`api.example.com`, not `a.api.example.com`)? */
export function isOneBelow(host: string, suffix: string): boolean {
  return isBelow(host, suffix) && host.indexOf('.') === host.length - suffix.length - 1;
}

/** Do two IPv4 addresses agree on their first `prefix` bits? */
export function sameV4Prefix(a: number, b: number, prefix: number): boolean {
  return maskV4(a, prefix) === maskV4(b, prefix);
}

/** Do two IPv6 addresses (eight 16-bit groups) agree on their first `prefix` bits? */
export function sameV6Prefix(a: readonly number[], b: readonly number[], prefix: number): boolean {
  const ma = maskV6(a, prefix);
  const mb = maskV6(b, prefix);
  return ma.every((g, i) => g === mb[i]);
}

/**
 * Does the pattern match the destination? A port of 0 on the pattern is any port. Hostnames compare
 * as they are (both are lower case without a trailing dot once parsed); a hostname never matches a
 * CIDR or an IP pattern, and an IP destination matches no hostname form but `**`.
 */
export function matchesNetwork(p: NetworkPattern, d: NetworkDestination): boolean {
  if (p.port !== 0 && p.port !== d.port) return false;
  switch (p.kind) {
    case 'any':
      return true;
    case 'host':
      return d.family === 0 && d.host === p.host;
    case 'one':
      return d.family === 0 && isOneBelow(d.host, p.suffix);
    case 'many':
      return d.family === 0 && isBelow(d.host, p.suffix);
    case 'cidr':
      if (d.family !== p.family) return false;
      return p.family === 4 ? sameV4Prefix(d.v4, p.v4, p.prefix) : sameV6Prefix(d.v6!, p.v6!, p.prefix);
  }
}
