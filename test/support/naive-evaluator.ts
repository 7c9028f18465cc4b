// A naive reference evaluator written straight from decisions §4, for tests and the bench. It
// shares only types with src/policy (no parsing or matching code): every request walks every rule
// and every resource, and IP handling is delegated to ipaddr.js.
import ipaddr from 'ipaddr.js';
import type { PolicyDoc } from '../../src/policy/document.js';
import type { Decision } from '../../src/policy/model.js';

export interface NaiveMatch {
  policy: string;
  rule: string;
  resource: string;
  decision: Decision;
}

export interface NaiveResult {
  decision: Decision;
  reason: string;
  matched: NaiveMatch[];
}

const DEFAULT_PORTS: Record<string, number> = { http: 80, https: 443, ws: 80, wss: 443, ftp: 21, ssh: 22 };

type Addr = ipaddr.IPv4 | ipaddr.IPv6;
interface NetDest {
  host: string;
  ip: Addr | null;
  port: number;
}

function unmap(a: Addr): Addr {
  if (a.kind() === 'ipv6' && (a as ipaddr.IPv6).isIPv4MappedAddress())
    return (a as ipaddr.IPv6).toIPv4Address();
  return a;
}

function ipOf(text: string): Addr | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (text.includes(':') && ipaddr.IPv6.isValid(text)) return unmap(ipaddr.IPv6.parse(text));
  return null;
}

function cleanHost(h: string): string {
  const lower = h.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** "A request names a destination as host, host:port, [v6]:port or a URL … without a port: 443." */
export function naiveDestination(dest: string): NetDest {
  let hostPort = dest;
  let port = 443;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(dest);
  if (scheme) {
    const url = new URL(dest);
    const s = scheme[1]!.toLowerCase();
    port = url.port ? Number(url.port) : (DEFAULT_PORTS[s] ?? 443);
    let h = url.hostname;
    if (h.startsWith('[')) h = h.slice(1, -1);
    // URL lower-cases special schemes only; do it ourselves
    return { host: cleanHost(ipOf(h) ? ipOf(h)!.toString() : h), ip: ipOf(h), port };
  }
  let host: string;
  const bracket = /^\[(.+)\](?::(\d+))?$/.exec(hostPort);
  if (bracket) {
    host = bracket[1]!;
    if (bracket[2]) port = Number(bracket[2]);
  } else if ((hostPort.match(/:/g) ?? []).length === 1) {
    const [h, p] = hostPort.split(':');
    host = h!;
    port = Number(p);
  } else {
    host = hostPort;
  }
  hostPort = '';
  const ip = ipOf(host);
  return { host: ip ? ip.toString() : cleanHost(host), ip, port };
}

function networkMatches(resource: string, d: NetDest): boolean {
  let r = resource;
  let port: number | undefined;
  // CIDR: "10.0.0.0/8", "2001:db8::/32": only IP-literal destinations, inside the range
  if (r.includes('/')) {
    if (!d.ip) return false;
    let [net, bits] = ipaddr.parseCIDR(r);
    if (net.kind() === 'ipv6' && (net as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
      net = (net as ipaddr.IPv6).toIPv4Address();
      bits -= 96;
    }
    return net.kind() === d.ip.kind() && d.ip.match(net, bits);
  }
  const bracket = /^\[(.+)\](?::(\d+))?$/.exec(r);
  if (bracket) {
    r = bracket[1]!;
    if (bracket[2]) port = Number(bracket[2]);
  } else if ((r.match(/:/g) ?? []).length === 1) {
    const i = r.indexOf(':');
    port = Number(r.slice(i + 1));
    r = r.slice(0, i);
  }
  if (port !== undefined && port !== d.port) return false;
  const ip = ipOf(r);
  if (ip)
    return (
      d.ip !== null && d.ip.kind() === ip.kind() && d.ip.toNormalizedString() === ip.toNormalizedString()
    );
  const pattern = cleanHost(r);
  if (pattern === '**') return true; // every host
  if (d.ip) return false; // names never match IP literals
  if (pattern.startsWith('**.')) {
    const suffix = pattern.slice(3);
    return d.host.endsWith(`.${suffix}`); // one or more labels, never the apex
  }
  if (pattern.startsWith('*.')) {
    const suffix = pattern.slice(2);
    if (!d.host.endsWith(`.${suffix}`)) return false;
    const label = d.host.slice(0, d.host.length - suffix.length - 1);
    return label.length > 0 && !label.includes('.'); // exactly one more label
  }
  return d.host === pattern;
}

/** Normalized path as text: "" or "~" for the root, then "/segment" per segment. */
export function naivePath(p: string): string {
  const home = p.startsWith('~');
  const stack: string[] = [];
  for (const seg of p.slice(1).split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (stack.length === 0 && home) throw new Error('escapes home');
      stack.pop();
    } else stack.push(seg);
  }
  return (home ? '~' : '') + stack.map((s) => `/${s}`).join('');
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function pathMatches(resource: string, path: string): boolean {
  const home = resource.startsWith('~');
  let re = home ? '^~' : '^';
  for (const seg of resource.slice(1).split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '**') re += '(?:/[^/]+)*';
    else re += `/${seg.split('*').map(escapeRe).join('[^/]*')}`;
  }
  return new RegExp(`${re}$`).test(path);
}

export function naiveEvaluate(
  policies: readonly PolicyDoc[],
  action: string,
  destination: string,
  opts: { explain?: boolean } = {},
): NaiveResult {
  const fs = action === 'read' || action === 'write';
  const nd = fs ? null : naiveDestination(destination);
  const path = fs ? naivePath(destination) : '';
  const all: (NaiveMatch & { key: string })[] = [];
  policies.forEach((p, pi) => {
    if (p.notEvaluated) return;
    p.rules.forEach((r, ri) => {
      if (r.notEvaluated || !r.actions.includes(action)) return;
      for (const resource of r.resources) {
        const hit = fs ? pathMatches(resource, path) : networkMatches(resource, nd!);
        if (hit) {
          all.push({
            policy: p.name,
            rule: r.name,
            resource,
            decision: r.decision as Decision,
            key: `${pi}/${ri}`,
          });
        }
      }
    });
  });
  if (all.length === 0)
    return { decision: 'deny', reason: 'no rule matched: denied by default', matched: [] };
  const decision: Decision = all.some((m) => m.decision === 'deny') ? 'deny' : 'allow';
  const seen = new Set<string>();
  const deciding: NaiveMatch[] = [];
  for (const m of all) {
    if (m.decision === decision && !seen.has(m.key)) {
      seen.add(m.key);
      deciding.push({ policy: m.policy, rule: m.rule, resource: m.resource, decision: m.decision });
    }
  }
  const first = deciding[0]!;
  const more =
    deciding.length > 1 ? ` and ${deciding.length - 1} more rule${deciding.length > 2 ? 's' : ''}` : '';
  const reason = `${decision === 'deny' ? 'denied' : 'allowed'} by rule "${first.rule}" of policy "${first.policy}"${more}`;
  const matched = opts.explain ? all.map(({ key: _k, ...m }) => m) : deciding;
  return { decision, reason, matched };
}
