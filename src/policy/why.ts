// `--explain`'s sentences: why a matching entry matched the destination. Pure: no IO.
import type { Entry } from './bucket.js';
import type { NetworkDestination } from './network-destination.js';
import type { FilesystemDestination } from './path.js';
import { describePathMatch } from './path-match.js';

function portWhy(port: number, d: NetworkDestination): string {
  return port === 0 ? `any port (${d.port})` : `port ${port}`;
}

/** `--explain`: which resource form of an entry matched which part of the destination. */
export function whyOf(e: Entry, nd: NetworkDestination | null, fd: FilesystemDestination | null): string {
  if (e.net && nd) {
    const p = e.net;
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
  if (e.fs && fd) {
    const p = e.fs;
    if (p.literal) return `path ${fd.path} is exactly ${p.canonical}`;
    const took = describePathMatch(p, fd);
    return `pattern ${p.canonical} matches ${fd.path}${took ? `: ${took}` : ''}`;
  }
  return '';
}
