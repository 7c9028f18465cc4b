// `policy suggest`: allow rules proposed from recorded denials, for a person to review. PURE: no IO.
//
// Denied `network_egress` events (decision AUDIT_DECISION_DENY) are grouped by protocol and
// destination. Each destination becomes one rule (`host:port`), or, when two or more subdomains of
// one parent were denied on one port, one wildcard `*.parent:port` (one label: the hosts seen and
// their siblings) with the parent itself, but only when the parent is within one registrable domain
// (public-suffix.ts). Never proposed: loopback, private, link-local, cloud metadata, multicast and
// unspecified addresses, and local names (localhost, *.local, *.internal, one-label names).

import { type NetworkDestination, parseNetworkDestination } from '../policy/index.js';
import { isWithinRegistrable } from './public-suffix.js';
import { type AuditRecord, decisionName, readAuditRecord } from './record.js';
import { requestOf, SKIP } from './replay.js';

export const NOT_PROPOSED = {
  loopback: 'loopback address or name',
  private: 'private address',
  linkLocal: 'link-local address',
  metadata: 'cloud metadata address or name',
  special: 'multicast, broadcast or unspecified address',
  localName: 'local name (localhost, *.local, *.internal, one label)',
  minCount: 'below --min-count',
} as const;

export const NOT_DENIAL = 'not a denial';
export const NOT_NETWORK = 'not a network_egress event (HTTP rules are not suggested)';
export const BAD_DESTINATION = 'destination not valid';

const MAX_USERS = 1000;
/** Distinct destinations kept; the events of further ones are counted as not proposed. */
export const MAX_DESTINATIONS = 100_000;
const TOO_MANY = 'past the first 100,000 destinations';

interface Seen {
  protocol: string;
  dest: NetworkDestination;
  count: number;
  users: Set<string>;
}

export interface SuggestedRule {
  name: string;
  action: string;
  resources: string[];
  count: number;
  users: string[];
  /** Distinct users past the names kept. */
  moreUsers: boolean;
  /** The destinations seen that the rule covers. */
  destinations: string[];
}

export interface Suggestion {
  rules: SuggestedRule[];
  /** Denied events of destinations not proposed, by reason. */
  notProposed: Record<string, number>;
  /** Events that are not denied network events, by reason. */
  skipped: Record<string, number>;
  denials: number;
  first: string | null;
  last: string | null;
}

function v4In(v: number, base: number, bits: number): boolean {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return ((v >>> 0) & mask) >>> 0 === (base & mask) >>> 0;
}
const v4 = (a: number, b: number, c: number, d: number) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

/** Why a destination is never proposed, or undefined when it may be. */
export function excluded(d: NetworkDestination): string | undefined {
  if (d.family === 4) {
    const v = d.v4 >>> 0;
    if (v === v4(169, 254, 169, 254) || v === v4(100, 100, 100, 200)) return NOT_PROPOSED.metadata;
    if (v4In(v, v4(127, 0, 0, 0), 8)) return NOT_PROPOSED.loopback;
    if (v4In(v, v4(169, 254, 0, 0), 16)) return NOT_PROPOSED.linkLocal;
    if (
      v4In(v, v4(10, 0, 0, 0), 8) ||
      v4In(v, v4(172, 16, 0, 0), 12) ||
      v4In(v, v4(192, 168, 0, 0), 16) ||
      v4In(v, v4(100, 64, 0, 0), 10)
    )
      return NOT_PROPOSED.private;
    if (v4In(v, v4(0, 0, 0, 0), 8) || v4In(v, v4(224, 0, 0, 0), 4) || v4In(v, v4(240, 0, 0, 0), 4))
      return NOT_PROPOSED.special;
    return undefined;
  }
  if (d.family === 6) {
    const g = d.v6 ?? [];
    const zeroHead = g.slice(0, 7).every((x) => x === 0);
    if (zeroHead && g[7] === 1) return NOT_PROPOSED.loopback;
    if (zeroHead && g[7] === 0) return NOT_PROPOSED.special;
    if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254)
      return NOT_PROPOSED.metadata;
    const first = g[0] ?? 0;
    if ((first & 0xffc0) === 0xfe80) return NOT_PROPOSED.linkLocal;
    if ((first & 0xfe00) === 0xfc00) return NOT_PROPOSED.private;
    if ((first & 0xff00) === 0xff00) return NOT_PROPOSED.special;
    return undefined;
  }
  const h = d.host;
  if (h === 'localhost' || h.endsWith('.localhost')) return NOT_PROPOSED.loopback;
  if (
    h === 'metadata' ||
    h === 'instance-data' ||
    h.startsWith('metadata.') ||
    h.startsWith('instance-data.')
  )
    return NOT_PROPOSED.metadata;
  if (!h.includes('.') || /\.(local|internal|localdomain|home\.arpa|lan)$/.test(h))
    return NOT_PROPOSED.localName;
  return undefined;
}

function hostText(d: NetworkDestination): string {
  return d.family === 6 ? `[${d.host}]` : d.host;
}

const parentOf = (host: string) => host.slice(host.indexOf('.') + 1);

/** Collects denials; `suggest()` proposes the rules. */
export class Suggester {
  private readonly seen = new Map<string, Seen>();
  private readonly skippedBy = new Map<string, number>();
  private readonly excludedBy = new Map<string, number>();
  private denials = 0;
  private firstMs = Number.POSITIVE_INFINITY;
  private lastMs = Number.NEGATIVE_INFINITY;
  private first: string | null = null;
  private last: string | null = null;

  private count(map: Map<string, number>, reason: string, n = 1): void {
    map.set(reason, (map.get(reason) ?? 0) + n);
  }

  tooLong(): void {
    this.count(this.skippedBy, SKIP.tooLong);
  }

  line(text: string): void {
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.count(this.skippedBy, SKIP.notJson);
      return;
    }
    const rec = readAuditRecord(value);
    if ('invalid' in rec) this.count(this.skippedBy, SKIP.notObject);
    else this.record(rec);
  }

  record(rec: AuditRecord): void {
    if (rec.decision === undefined || decisionName(rec.decision) !== 'deny') {
      this.count(this.skippedBy, NOT_DENIAL);
      return;
    }
    const req = requestOf(rec);
    if (typeof req === 'string') {
      this.count(this.skippedBy, req);
      return;
    }
    if (!req.action.startsWith('connect:')) {
      this.count(this.skippedBy, NOT_NETWORK);
      return;
    }
    let dest: NetworkDestination;
    try {
      dest = parseNetworkDestination(req.destination);
    } catch {
      this.count(this.skippedBy, BAD_DESTINATION);
      return;
    }
    this.denials++;
    if (rec.timeMs < this.firstMs) {
      this.firstMs = rec.timeMs;
      this.first = rec.time ?? null;
    }
    if (rec.timeMs > this.lastMs) {
      this.lastMs = rec.timeMs;
      this.last = rec.time ?? null;
    }
    const why = excluded(dest);
    if (why !== undefined) {
      this.count(this.excludedBy, why);
      return;
    }
    const protocol = req.action.slice('connect:'.length);
    const key = `${protocol} ${hostText(dest)}:${dest.port}`;
    let s = this.seen.get(key);
    if (s === undefined) {
      if (this.seen.size >= MAX_DESTINATIONS) {
        this.count(this.excludedBy, TOO_MANY);
        return;
      }
      s = { protocol, dest, count: 0, users: new Set() };
      this.seen.set(key, s);
    }
    s.count++;
    if (rec.user !== undefined && s.users.size < MAX_USERS) s.users.add(rec.user);
  }

  suggest(minCount = 1): Suggestion {
    // wildcard parents: per protocol and port, a parent within one registrable domain with two or
    // more distinct child hosts seen
    const children = new Map<string, Set<string>>();
    const scope = (s: Seen) => `${s.protocol} ${s.dest.port}`;
    for (const s of this.seen.values()) {
      if (s.dest.family !== 0) continue;
      const parent = parentOf(s.dest.host);
      if (!parent.includes('.') || !isWithinRegistrable(parent)) continue;
      const k = `${scope(s)} ${parent}`;
      const set = children.get(k) ?? new Set<string>();
      children.set(k, set);
      set.add(s.dest.host);
    }
    const wild = new Set([...children].filter(([, hosts]) => hosts.size >= 2).map(([k]) => k));
    const groups = new Map<string, { wildcard: string | null; seen: Seen[] }>();
    for (const s of this.seen.values()) {
      let wildcard: string | null = null;
      if (s.dest.family === 0 && wild.has(`${scope(s)} ${parentOf(s.dest.host)}`)) {
        wildcard = parentOf(s.dest.host);
      } else if (s.dest.family === 0 && wild.has(`${scope(s)} ${s.dest.host}`)) {
        wildcard = s.dest.host; // the parent itself, in its wildcard's rule
      }
      const key = wildcard === null ? `${scope(s)} =${hostText(s.dest)}` : `${scope(s)} *${wildcard}`;
      const g = groups.get(key) ?? { wildcard, seen: [] };
      groups.set(key, g);
      g.seen.push(s);
    }
    const rules: SuggestedRule[] = [];
    const notProposed = new Map(this.excludedBy);
    const names = new Set<string>();
    for (const g of groups.values()) {
      const s0 = g.seen[0]!;
      const port = s0.dest.port;
      const count = g.seen.reduce((a, s) => a + s.count, 0);
      if (count < minCount) {
        this.count(notProposed, NOT_PROPOSED.minCount, count);
        continue;
      }
      const resources: string[] = [];
      if (g.wildcard !== null) {
        resources.push(`*.${g.wildcard}:${port}`);
        // the parent too (`*.` never matches it, and lint asks for it), unless a wider wildcard covers it
        if (!wild.has(`${s0.protocol} ${port} ${parentOf(g.wildcard)}`))
          resources.push(`${g.wildcard}:${port}`);
      } else resources.push(`${hostText(s0.dest)}:${port}`);
      const users = new Set<string>();
      let moreUsers = false;
      for (const s of g.seen) {
        for (const u of s.users) if (users.size < MAX_USERS) users.add(u);
        if (s.users.size >= MAX_USERS) moreUsers = true;
      }
      const base =
        `allow-${(g.wildcard === null ? hostText(s0.dest) : `any-${g.wildcard}`).replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}-${port}${s0.protocol === 'udp' ? '-udp' : ''}`.slice(
          0,
          90,
        );
      let name = base;
      for (let i = 2; names.has(name); i++) name = `${base}-${i}`;
      names.add(name);
      rules.push({
        name,
        action: `connect:${s0.protocol}`,
        resources,
        count,
        users: [...users].sort(),
        moreUsers,
        destinations: g.seen.map((s) => `${hostText(s.dest)}:${s.dest.port}`).sort(),
      });
    }
    rules.sort((a, b) => b.count - a.count || (a.name < b.name ? -1 : 1));
    const obj = (m: Map<string, number>) => Object.fromEntries([...m].sort((a, b) => b[1] - a[1]));
    return {
      rules,
      notProposed: obj(notProposed),
      skipped: obj(this.skippedBy),
      denials: this.denials,
      first: this.first,
      last: this.last,
    };
  }
}

/** One line of a YAML comment: control characters written visibly, never a line break. */
function commentText(s: string): string {
  return s.replace(
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The suggestion as a policy file in the authoring form (YAML), with what each rule covers as comments. */
export function suggestionYaml(s: Suggestion, name: string): string {
  const out: string[] = [];
  const span = s.first === null ? '' : ` (${commentText(s.first)} … ${commentText(s.last ?? s.first)})`;
  out.push(
    `# Allow rules suggested by \`hubctl policy suggest\` from ${s.denials} denied network event${s.denials === 1 ? '' : 's'}${span}.`,
  );
  out.push('# Review every rule before applying it: each one allows what was denied.');
  const np = Object.entries(s.notProposed);
  if (np.length > 0)
    out.push(`# Not proposed: ${np.map(([k, v]) => `${v} event${v === 1 ? '' : 's'}: ${k}`).join('; ')}.`);
  out.push(`name: ${JSON.stringify(name)}`);
  if (s.rules.length === 0) {
    out.push('rules: []');
    return `${out.join('\n')}\n`;
  }
  out.push('rules:');
  for (const r of s.rules) {
    const shown = r.users.slice(0, 10).map(commentText).join(', ');
    const more =
      r.users.length > 10 || r.moreUsers ? `, and ${r.moreUsers ? 'more' : r.users.length - 10} more` : '';
    out.push(
      `  # ${r.count} event${r.count === 1 ? '' : 's'}, ${r.users.length}${r.moreUsers ? '+' : ''} user${r.users.length === 1 ? '' : 's'}${shown ? `: ${shown}${more}` : ''}`,
    );
    if (r.resources[0]!.startsWith('*.')) {
      const seen = r.destinations.slice(0, 10).join(', ');
      out.push(
        `  # wildcard over ${r.destinations.length} destinations seen: ${commentText(seen)}${r.destinations.length > 10 ? ', …' : ''}`,
      );
    }
    out.push(`  - name: ${JSON.stringify(r.name)}`);
    out.push(`    actions: [${r.action}]`);
    out.push('    decision: allow');
    out.push(`    resources: [${r.resources.map((x) => JSON.stringify(x)).join(', ')}]`);
  }
  return `${out.join('\n')}\n`;
}
