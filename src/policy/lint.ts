// `policy lint`: what bites users, found statically over the effective set of policies. Coverage is
// exact for network resources and for literal paths; for two path globs it is decided only when one
// is a literal prefix followed by `**` (a safe under-approximation: no false warnings). Pure: no IO.
import type { PolicyDoc } from './document.js';
import { parseHttpPattern } from './http.js';
import { isBelow, isOneBelow, sameV4Prefix, sameV6Prefix } from './matches.js';
import { type Decision, domainOfAction } from './model.js';
import { type NetworkPattern, parseNetworkResource } from './network.js';
import { type FilesystemPattern, parseFilesystemResource } from './path.js';
import { matchPath } from './path-match.js';

export type LintCode =
  | 'APEX_NOT_COVERED'
  | 'DEAD_ALLOW'
  | 'DUPLICATE_RESOURCE'
  | 'OVERLAPPING_RESOURCE'
  | 'ALLOW_ALL_HOSTS'
  | 'WRITE_WITHOUT_READ'
  /** A policy or rule hubctl cannot evaluate: `policy eval` refuses to decide while it is there. */
  | 'NOT_EVALUATED'
  /** Two rules of one policy share a name: `diff` and `apply` match rules by name. */
  | 'DUPLICATE_RULE_NAME'
  /** An HTTP rule under a network deny that blocks every request it matches. */
  | 'UNREACHABLE_HTTP_RULE';

export interface LintWarning {
  code: LintCode;
  policy: string;
  rule: string;
  resource: string;
  message: string;
}

interface Item {
  policy: string;
  rule: string;
  ruleKey: number;
  decision: Decision;
  actions: ReadonlySet<string>;
  resource: string;
  net: NetworkPattern | null;
  fs: FilesystemPattern | null;
}

/** Does d match every destination that r matches? */
export function networkCovers(d: NetworkPattern, r: NetworkPattern): boolean {
  if (d.port !== 0 && d.port !== r.port) return false;
  if (d.kind === 'any') return true;
  switch (r.kind) {
    case 'any':
      return false;
    case 'host':
      if (d.kind === 'host') return d.host === r.host;
      if (d.kind === 'one') return isOneBelow(r.host, d.suffix);
      if (d.kind === 'many') return isBelow(r.host, d.suffix);
      return false;
    case 'one':
      if (d.kind === 'one') return d.suffix === r.suffix;
      if (d.kind === 'many') return d.suffix === r.suffix || isBelow(r.suffix, d.suffix);
      return false;
    case 'many':
      if (d.kind === 'many') return d.suffix === r.suffix || isBelow(r.suffix, d.suffix);
      return false;
    case 'cidr': {
      if (d.kind !== 'cidr' || d.family !== r.family || r.prefix < d.prefix) return false;
      return d.family === 4 ? sameV4Prefix(r.v4, d.v4, d.prefix) : sameV6Prefix(d.v6!, r.v6!, d.prefix);
    }
  }
}

/** Does d match every path that r matches? Exact for literal r; conservative otherwise. */
export function filesystemCovers(d: FilesystemPattern, r: FilesystemPattern): boolean {
  if (d.home !== r.home) return false;
  if (d.canonical === r.canonical) return true;
  if (r.literal) {
    return matchPath(d, { home: r.home, segments: r.segments.map((s) => s.text), path: r.canonical });
  }
  const ds = d.segments;
  const last = ds[ds.length - 1];
  if (last?.kind !== 'globstar') return false;
  if (ds.length - 1 > r.segments.length) return false;
  for (let i = 0; i < ds.length - 1; i++) {
    const a = ds[i]!;
    const b = r.segments[i]!;
    if (a.kind !== 'lit' || b.kind !== 'lit' || a.text !== b.text) return false;
  }
  return true;
}

function covers(d: Item, r: Item): boolean {
  if (d.net && r.net) return networkCovers(d.net, r.net);
  if (d.fs && r.fs) return filesystemCovers(d.fs, r.fs);
  return false;
}

function shareAction(a: Item, b: Item): string | undefined {
  for (const x of a.actions) if (b.actions.has(x)) return x;
  return undefined;
}

function items(policies: readonly PolicyDoc[]): Item[] {
  const out: Item[] = [];
  let ruleKey = 0;
  for (const p of policies) {
    if (p.notEvaluated) continue;
    for (const r of p.rules) {
      ruleKey++;
      if (r.notEvaluated || (r.decision !== 'allow' && r.decision !== 'deny')) continue;
      const domain = domainOfAction(r.actions[0] ?? '');
      for (const resource of r.resources) {
        out.push({
          policy: p.name,
          rule: r.name,
          ruleKey,
          decision: r.decision,
          actions: new Set(r.actions),
          resource,
          net: domain === 'network' ? parseNetworkResource(resource) : null,
          fs: domain === 'filesystem' ? parseFilesystemResource(resource) : null,
        });
      }
    }
  }
  return out;
}

function where(x: Item): string {
  return `rule "${x.rule}" of policy "${x.policy}"`;
}

/** Warnings over the effective set (all policies evaluated together), in a stable order. */
export function lintPolicies(policies: readonly PolicyDoc[]): LintWarning[] {
  const all = items(policies);
  const warnings: LintWarning[] = [];
  const warn = (code: LintCode, x: Item, message: string) =>
    warnings.push({ code, policy: x.policy, rule: x.rule, resource: x.resource, message });

  for (const p of policies) {
    const skipped = p.notEvaluated ? [{ name: '', notEvaluated: p.notEvaluated }] : p.rules;
    for (const r of skipped) {
      if (!r.notEvaluated) continue;
      const what = r.name === '' ? `policy "${p.name}"` : `rule "${r.name}" of policy "${p.name}"`;
      warnings.push({
        code: 'NOT_EVALUATED',
        policy: p.name,
        rule: r.name,
        resource: '',
        message: `${what} cannot be evaluated: ${r.notEvaluated}; \`policy eval\` refuses to decide while it is there`,
      });
    }
  }

  for (const p of policies) {
    const seen = new Set<string>();
    for (const r of p.rules) {
      if (seen.has(r.name)) {
        warnings.push({
          code: 'DUPLICATE_RULE_NAME',
          policy: p.name,
          rule: r.name,
          resource: '',
          message: `policy "${p.name}" has more than one rule named "${r.name}"; rules are told apart by name (policy diff and apply)`,
        });
      }
      seen.add(r.name);
    }
  }
  unreachableHttpRules(policies, all, warnings);

  for (const x of all) {
    const n = x.net;
    if (n && (n.kind === 'one' || n.kind === 'many')) {
      const apex: NetworkPattern = { kind: 'host', host: n.suffix, port: n.port, canonical: n.suffix };
      const covered = [...x.actions].every((a) =>
        all.some((y) => y.decision === x.decision && y.actions.has(a) && y.net && networkCovers(y.net, apex)),
      );
      if (!covered) {
        const verb = x.decision === 'allow' ? 'allowed' : 'denied';
        warn(
          'APEX_NOT_COVERED',
          x,
          `"${x.resource}" in ${where(x)} does not match ${n.suffix} itself, and no rule ${x.decision}s it; ` +
            `add "${n.suffix}" if it should be ${verb} too`,
        );
      }
    }
    if (n && n.kind === 'any' && x.decision === 'allow') {
      warn(
        'ALLOW_ALL_HOSTS',
        x,
        `"${x.resource}" in ${where(x)} allows every host${n.port ? ` on port ${n.port}` : ''}: the allowlist allows everything`,
      );
    }
    if (x.fs && x.decision === 'allow' && x.actions.has('write')) {
      const readable = all.some((y) => y.decision === 'allow' && y.actions.has('read') && covers(y, x));
      if (!readable) {
        warn(
          'WRITE_WITHOUT_READ',
          x,
          `${where(x)} allows write on "${x.resource}" but no rule allows read there; writes usually need reads`,
        );
      }
    }
    if (x.decision === 'allow') {
      for (const y of all) {
        if (y.decision !== 'deny') continue;
        const a = shareAction(x, y);
        if (a && covers(y, x)) {
          warn(
            'DEAD_ALLOW',
            x,
            `allow "${x.resource}" in ${where(x)} never takes effect for ${a}: deny "${y.resource}" in ${where(y)} covers it`,
          );
          break;
        }
      }
    }
  }

  for (let i = 0; i < all.length; i++) {
    const x = all[i]!;
    for (let j = i + 1; j < all.length; j++) {
      const y = all[j]!;
      if (x.decision !== y.decision || !shareAction(x, y)) continue;
      const cx = x.net?.canonical ?? x.fs?.canonical;
      const cy = y.net?.canonical ?? y.fs?.canonical;
      if (cx === cy) {
        const place = x.ruleKey === y.ruleKey ? `twice in ${where(x)}` : `in ${where(x)} and ${where(y)}`;
        warn('DUPLICATE_RESOURCE', y, `"${y.resource}" appears ${place}`);
      } else if (covers(x, y)) {
        warn(
          'OVERLAPPING_RESOURCE',
          y,
          `"${y.resource}" in ${where(y)} is already covered by "${x.resource}" in ${where(x)}`,
        );
      } else if (covers(y, x)) {
        warn(
          'OVERLAPPING_RESOURCE',
          x,
          `"${x.resource}" in ${where(x)} is already covered by "${y.resource}" in ${where(y)}`,
        );
      }
    }
  }
  return warnings;
}

/** HTTP rules whose every request a network deny (on `connect:tcp`) blocks before they are read. */
function unreachableHttpRules(policies: readonly PolicyDoc[], all: Item[], warnings: LintWarning[]): void {
  const denies = all.filter((y) => y.decision === 'deny' && y.net !== null && y.actions.has('connect:tcp'));
  for (const p of policies) {
    if (p.notEvaluated) continue;
    for (const r of p.rules) {
      if (r.notEvaluated) continue;
      for (const hr of r.http_resources ?? []) {
        const host = parseHttpPattern(hr).host;
        const y = denies.find((d) => networkCovers(d.net!, host));
        if (y === undefined) continue;
        const resource = `${host.canonical}${hr.path}`;
        warnings.push({
          code: 'UNREACHABLE_HTTP_RULE',
          policy: p.name,
          rule: r.name,
          resource,
          message: `HTTP rule "${r.name}" of policy "${p.name}" never decides "${resource}": deny "${y.resource}" in ${where(y)} blocks every connection it matches, and no HTTP allow reopens a network deny`,
        });
      }
    }
  }
}
