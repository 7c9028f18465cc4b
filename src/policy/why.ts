// `--explain`'s sentences: why a matching entry matched the destination. Pure: no IO.

import type { HttpRequest } from './http.js';
import type { NetworkPattern } from './network.js';
import type { NetworkDestination } from './network-destination.js';
import type { FilesystemDestination } from './path.js';
import { describePathMatch } from './path-match.js';
import type { Entry } from './types.js';

function portWhy(port: number, d: NetworkDestination): string {
  return port === 0 ? `any port (${d.port})` : `port ${port}`;
}

/**
 * `--explain`: which resource form of an entry matched which part of the destination; for an HTTP
 * request (`req`), the layer too: the network rule of its connection, or the HTTP rule.
 */
export function whyOf(
  e: Entry,
  nd: NetworkDestination | null,
  fd: FilesystemDestination | null,
  req: HttpRequest | null = null,
): string {
  if (req !== null) {
    if (e.http !== null) {
      const host = hostWhy(e.http.host, req.dest);
      const path = e.http.segments.some((s) => s === '*' || s === '**')
        ? `path ${e.http.path} matches ${req.path}`
        : `path ${req.path} is exactly ${e.http.path}`;
      return `HTTP layer: ${host}; ${path}`;
    }
    return `network layer (the connection, every method): ${e.net ? hostWhy(e.net, req.dest) : ''}`;
  }
  if (e.net && nd) return hostWhy(e.net, nd);
  if (e.fs && fd) {
    const p = e.fs;
    if (p.literal) return `path ${fd.path} is exactly ${p.canonical}`;
    const took = describePathMatch(p, fd);
    return `pattern ${p.canonical} matches ${fd.path}${took ? `: ${took}` : ''}`;
  }
  return '';
}

/** Which host form of a network pattern matched the destination's host, and its port. */
function hostWhy(p: NetworkPattern, nd: NetworkDestination): string {
  switch (p.kind) {
    case 'host':
      return `host ${nd.host} is exactly ${p.host}; ${portWhy(p.port, nd)}`;
    case 'any':
      return `"**" matches every host (${nd.host}); ${portWhy(p.port, nd)}`;
    case 'one': {
      const label = nd.host.slice(0, nd.host.length - p.suffix.length - 1);
      return `"*.${p.suffix}" matches one label ("${label}") below ${p.suffix}; ${portWhy(p.port, nd)}`;
    }
    case 'many': {
      const labels = nd.host.slice(0, nd.host.length - p.suffix.length - 1);
      const n = labels.split('.').length;
      return `"**.${p.suffix}" matches ${n} label${n > 1 ? 's' : ''} ("${labels}") below ${p.suffix}; ${portWhy(p.port, nd)}`;
    }
    case 'cidr': {
      const full = p.prefix === (p.family === 4 ? 32 : 128);
      const what = full
        ? `address ${nd.host} is exactly the rule's address`
        : `${p.canonical} contains ${nd.host}`;
      return `${what}; ${portWhy(p.port, nd)}`;
    }
  }
}
