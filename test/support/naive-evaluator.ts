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
  /** With explain: why it matched, in the words of `--explain` (for a request, with its layer). */
  why?: string;
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

/**
 * Whether an IPv6 address is decided as the IPv4 address in its last 32 bits: IPv4-mapped
 * (`::ffff:0:0/96`), IPv4-compatible (`::/96`, but not `::` or `::1`) and the NAT64 well-known
 * prefix (`64:ff9b::/96`).
 */
function carriesIPv4(a: ipaddr.IPv6): boolean {
  const p = a.parts;
  if (a.isIPv4MappedAddress()) return true;
  if (a.match(ipaddr.IPv6.parse('64:ff9b::'), 96)) return true;
  return a.match(ipaddr.IPv6.parse('::'), 96) && !(p[6] === 0 && p[7]! <= 1);
}

function embedded(a: ipaddr.IPv6): ipaddr.IPv4 {
  const p = a.parts;
  return new ipaddr.IPv4([p[6]! >> 8, p[6]! & 255, p[7]! >> 8, p[7]! & 255]);
}

function unmap(a: Addr): Addr {
  if (a.kind() === 'ipv6' && carriesIPv4(a as ipaddr.IPv6)) return embedded(a as ipaddr.IPv6);
  return a;
}

/**
 * IPv6 text with a trailing dotted quad rewritten as two hex groups: ipaddr.js reads `::a.b.c.d`
 * as IPv4-mapped (`::ffff:a.b.c.d`), which RFC 4291 does not (it is IPv4-compatible).
 */
function v6Text(text: string): string {
  const m = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (!m || !ipaddr.IPv4.isValidFourPartDecimal(`${m[2]}.${m[3]}.${m[4]}.${m[5]}`)) return text;
  const [a, b, c, d] = [m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number];
  return `${m[1]}${(a * 256 + b).toString(16)}:${(c * 256 + d).toString(16)}`;
}

function ipOf(text: string): Addr | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (text.includes(':') && ipaddr.IPv6.isValid(text)) return unmap(ipaddr.IPv6.parse(v6Text(text)));
  return null;
}

function cleanHost(h: string): string {
  const lower = h.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/**
 * The host a WHATWG URL parser (Node's URL) reads, as special schemes read it: lower case, IDNs in
 * punycode, and every numeric IPv4 form (hex, octal, short, integer) as its dotted quad. Throws when
 * the parser refuses the host.
 */
function whatwgHost(h: string): string {
  if (h.includes(':')) return h;
  return new URL(`http://${h}/`).hostname;
}

/**
 * "A request names a destination as host, host:port, [v6]:port or a URL … without a port: 443."
 * A host is read as a URL parser reads it; a URL is split by the WHATWG rules, and one with a
 * backslash is refused (parsers split it differently). Throws for a destination it refuses.
 */
export function naiveDestination(dest: string): NetDest {
  let hostPort = dest;
  let port = 443;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(dest);
  if (scheme) {
    if (dest.includes('\\')) throw new Error('backslash in a URL');
    const url = new URL(dest);
    const s = scheme[1]!.toLowerCase();
    port = url.port ? Number(url.port) : (DEFAULT_PORTS[s] ?? 443);
    let h = url.hostname;
    if (h.startsWith('[')) h = h.slice(1, -1);
    else h = whatwgHost(h);
    // URL lower-cases special schemes only; do it ourselves
    return { host: cleanHost(ipOf(h) ? ipOf(h)!.toString() : h), ip: ipOf(h), port };
  }
  // without a URL, the parts of one (user info, a path) are refused
  if (/[\\@/]/.test(dest)) throw new Error('user info or a path without a URL');
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
  host = whatwgHost(host);
  const ip = ipOf(host);
  return { host: ip ? ip.toString() : cleanHost(host), ip, port };
}

/** A resource read once: whether it matches, and (for `--explain`) why, in the engine's words. */
interface Matcher<D> {
  test(d: D): boolean;
  why(d: D): string;
}

function portWhy(port: number | undefined, d: NetDest): string {
  return port === undefined ? `any port (${d.port})` : `port ${port}`;
}

/** Reads one network resource once; the returned test is applied to each destination. */
function networkMatcher(resource: string): Matcher<NetDest> {
  let r = resource;
  let port: number | undefined;
  // CIDR: "10.0.0.0/8", "2001:db8::/32": only IP-literal destinations, inside the range
  if (r.includes('/')) {
    const slash = r.indexOf('/');
    let [net, bits] = ipaddr.parseCIDR(`${v6Text(r.slice(0, slash))}${r.slice(slash)}`);
    // A range of such addresses is the IPv4 range (one holding :: or ::1 stays IPv6).
    if (net.kind() === 'ipv6' && bits >= 96 && carriesIPv4(net as ipaddr.IPv6)) {
      net = embedded(net as ipaddr.IPv6);
      bits -= 96;
    }
    const whole = bits === (net.kind() === 'ipv4' ? 32 : 128);
    return {
      test: (d) => d.ip !== null && net.kind() === d.ip.kind() && d.ip.match(net, bits),
      why: (d) =>
        `${whole ? `address ${d.host} is exactly the rule's address` : `${net.toString()}/${bits} contains ${d.host}`}; ${portWhy(undefined, d)}`,
    };
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
  const portOk = (d: NetDest) => port === undefined || port === d.port;
  const ip = ipOf(r);
  if (ip) {
    const text = ip.toNormalizedString();
    return {
      test: (d) =>
        portOk(d) && d.ip !== null && d.ip.kind() === ip.kind() && d.ip.toNormalizedString() === text,
      why: (d) => `address ${d.host} is exactly the rule's address; ${portWhy(port, d)}`,
    };
  }
  const pattern = cleanHost(r);
  if (pattern === '**') {
    // every host
    return { test: portOk, why: (d) => `"**" matches every host (${d.host}); ${portWhy(port, d)}` };
  }
  if (pattern.startsWith('**.')) {
    const suffix = pattern.slice(3);
    return {
      // one or more labels, never the apex; names never match IP literals
      test: (d) => portOk(d) && !d.ip && d.host.endsWith(`.${suffix}`),
      why: (d) => {
        const labels = d.host.slice(0, d.host.length - suffix.length - 1);
        const n = labels.split('.').length;
        return `"**.${suffix}" matches ${n} label${n > 1 ? 's' : ''} ("${labels}") below ${suffix}; ${portWhy(port, d)}`;
      },
    };
  }
  if (pattern.startsWith('*.')) {
    const suffix = pattern.slice(2);
    const labelOf = (d: NetDest) => d.host.slice(0, d.host.length - suffix.length - 1);
    return {
      test: (d) => {
        if (!portOk(d) || d.ip || !d.host.endsWith(`.${suffix}`)) return false;
        const label = labelOf(d);
        return label.length > 0 && !label.includes('.'); // exactly one more label
      },
      why: (d) => `"*.${suffix}" matches one label ("${labelOf(d)}") below ${suffix}; ${portWhy(port, d)}`,
    };
  }
  return {
    test: (d) => portOk(d) && !d.ip && d.host === pattern,
    why: (d) => `host ${d.host} is exactly ${pattern}; ${portWhy(port, d)}`,
  };
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

/** A normalized path as `--explain` shows it: the root as "/" (naivePath writes it ""). */
function shownPath(path: string): string {
  return path === '' ? '/' : path;
}

/**
 * Reads one path pattern once into a regular expression over normalized path text. For `--explain`
 * each wildcard is a group: a `**` takes as few segments as it can (the first match a reader would
 * find left to right), a `*` segment the whole segment.
 */
function pathMatcher(resource: string): Matcher<string> {
  const home = resource.startsWith('~');
  const segments: string[] = [];
  for (const seg of resource.slice(1).split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '**' && segments[segments.length - 1] === '**') continue; // "**/**" is one "**"
    segments.push(seg);
  }
  let re = home ? '^~' : '^';
  for (const seg of segments) {
    if (seg === '**') re += '((?:/[^/]+)*?)';
    else if (seg.includes('*')) re += `/(${seg.split('*').map(escapeRe).join('[^/]*')})`;
    else re += `/${escapeRe(seg)}`;
  }
  const compiled = new RegExp(`${re}$`);
  const canonical =
    (home ? '~' : '') + (segments.length === 0 && !home ? '/' : segments.map((g) => `/${g}`).join(''));
  const wildcards = segments.filter((g) => g.includes('*'));
  return {
    test: (path) => compiled.test(path),
    why: (path) => {
      if (wildcards.length === 0) return `path ${shownPath(path)} is exactly ${canonical}`;
      const groups = compiled.exec(path)!.slice(1);
      const took = wildcards.map((g, k) => {
        if (g !== '**') return `"${g}" took "${groups[k]}"`;
        return groups[k] === '' ? '"**" took nothing' : `"**" took "${groups[k]!.slice(1)}"`;
      });
      return `pattern ${canonical} matches ${shownPath(path)}: ${took.join(', ')}`;
    },
  };
}

/**
 * An HTTP request: "an http:// or https:// URL … canonical paths only: no query, no fragment, no
 * percent-encoding, no `.`/`..`, no repeated or trailing slashes" (issue 14). Throws otherwise.
 */
export function naiveRequest(dest: string): { nd: NetDest; path: string } {
  const m = /^https?:\/\/[^/?#]*(.*)$/i.exec(dest);
  if (!m) throw new Error('not an http(s) URL');
  const nd = naiveDestination(dest);
  const path = m[1] === '' ? '/' : m[1]!;
  if (!path.startsWith('/') || /[?#%\\]/.test(path) || /[^\x21-\x7e]/.test(path))
    throw new Error('not a canonical path');
  if (path !== '/' && (path.endsWith('/') || path.includes('//') || /\/\.\.?(\/|$)/.test(path)))
    throw new Error('not a canonical path');
  return { nd, path: path === '/' ? '' : path };
}

/** An HTTP rule's path: `*` one segment, `**` any depth (none included), else exactly. */
function httpPathMatcher(path: string): (p: string) => boolean {
  const segs = path === '/' ? [] : path.slice(1).split('/');
  const re = segs.map((g) => (g === '**' ? '(?:/[^/]+)*' : g === '*' ? '/[^/]+' : `/${escapeRe(g)}`));
  const compiled = new RegExp(`^${re.join('')}$`);
  return (p) => compiled.test(p);
}

interface NaiveResource {
  text: string;
  net: Matcher<NetDest> | null;
  fs: Matcher<string> | null;
  http: Matcher<{ d: NetDest; path: string }> | null;
}

interface NaiveRule {
  policy: string;
  rule: string;
  key: string;
  decision: Decision;
  actions: string[];
  resources: NaiveResource[];
}

function httpResource(h: { host: string; port?: number; path: string }): NaiveResource {
  const port = h.port === undefined ? '' : `:${h.port}`;
  const host = networkMatcher(h.host.includes(':') && port ? `[${h.host}]${port}` : `${h.host}${port}`);
  const path = httpPathMatcher(h.path);
  const wild = h.path.split('/').some((g) => g === '*' || g === '**');
  return {
    text: `${h.host}${port}${h.path}`,
    net: null,
    fs: null,
    http: {
      test: (r) => host.test(r.d) && path(r.path),
      why: (r) => {
        const shown = shownPath(r.path);
        const paths = wild ? `path ${h.path} matches ${shown}` : `path ${shown} is exactly ${h.path}`;
        return `HTTP layer: ${host.why(r.d)}; ${paths}`;
      },
    },
  };
}

const prepared = new WeakMap<readonly PolicyDoc[], NaiveRule[]>();

/** Each rule read once (a naive evaluator still need not re-read its rules for every request). */
function prepare(policies: readonly PolicyDoc[]): NaiveRule[] {
  let rules = prepared.get(policies);
  if (rules) return rules;
  rules = [];
  policies.forEach((p, pi) => {
    if (p.notEvaluated) return;
    p.rules.forEach((r, ri) => {
      if (r.notEvaluated) return;
      const fs = r.actions.includes('read') || r.actions.includes('write');
      rules!.push({
        policy: p.name,
        rule: r.name,
        key: `${pi}/${ri}`,
        decision: r.decision as Decision,
        actions: r.actions,
        resources: r.http_resources
          ? r.http_resources.map(httpResource)
          : r.resources.map((text) => ({
              text,
              net: fs ? null : networkMatcher(text),
              fs: fs ? pathMatcher(text) : null,
              http: null,
            })),
      });
    });
  });
  prepared.set(policies, rules);
  return rules;
}

export function naiveEvaluate(
  policies: readonly PolicyDoc[],
  action: string,
  destination: string,
  opts: { explain?: boolean } = {},
): NaiveResult {
  const fs = action === 'read' || action === 'write';
  // an HTTP request is decided by the network rules of its TCP connection and the HTTP rules of
  // its method, together: deny wins
  const request = action.startsWith('request:') ? naiveRequest(destination) : null;
  const nd = fs ? null : request ? request.nd : naiveDestination(destination);
  const path = fs ? naivePath(destination) : '';
  const all: (NaiveMatch & { key: string })[] = [];
  // every rule, every resource
  for (const r of prepare(policies)) {
    const applies = r.actions.includes(action) || (request !== null && r.actions.includes('connect:tcp'));
    if (!applies) continue;
    for (const res of r.resources) {
      let why: string;
      if (res.http) {
        const req = { d: nd!, path: request?.path ?? '' };
        if (request === null || !r.actions.includes(action) || !res.http.test(req)) continue;
        why = opts.explain ? res.http.why(req) : '';
      } else if (fs) {
        if (!res.fs!.test(path)) continue;
        why = opts.explain ? res.fs!.why(path) : '';
      } else {
        if (!res.net!.test(nd!)) continue;
        const host = opts.explain ? res.net!.why(nd!) : '';
        why = request === null ? host : `network layer (the connection, every method): ${host}`;
      }
      const m = { policy: r.policy, rule: r.rule, resource: res.text, decision: r.decision };
      all.push(opts.explain ? { ...m, why, key: r.key } : { ...m, key: r.key });
    }
  }
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
