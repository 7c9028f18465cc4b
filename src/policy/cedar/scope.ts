// A policy's scope (its action and resource constraints) decided before Cedar is asked, for one
// request whose entities are known whole (the resource and its server). Cedar checks the scope before
// the conditions and stops at the first false, so a policy whose scope cannot match is neither
// satisfied nor erroring: leaving it out of the set handed to the engine changes nothing but the
// time the engine takes. Pure: no IO.
import type { PolicyJson } from './wasm.js';

interface Uid {
  type: string;
  id: string;
}

/** `type::"id"`, from either JSON form of an entity reference. */
export function uidKey(u: unknown): string {
  const o = (u ?? {}) as { type?: string; id?: string; __entity?: Uid };
  const e = o.__entity ?? o;
  return `${e.type}::${JSON.stringify(e.id)}`;
}

/** A policy's scope, read once from its JSON form. */
export interface Scope {
  /** Action keys it names; undefined for every action. */
  readonly actions: ReadonlySet<string> | undefined;
  /** The resource constraint: every resource, `==` one, `in` one (itself or a descendant), `is` a type (optionally `in`). */
  readonly resource:
    | { op: 'All' }
    | { op: '=='; key: string }
    | { op: 'in'; key: string }
    | { op: 'is'; type: string; inKey?: string }
    /** Anything else (a template slot): never left out. */
    | { op: 'unknown' };
}

export function scopeOf(p: PolicyJson): Scope {
  const a = p.action as { op: string; entity?: unknown; entities?: unknown[] };
  const actions =
    a.op === 'All' ? undefined : new Set(a.entities ? a.entities.map(uidKey) : [uidKey(a.entity)]);
  const r = p.resource as { op: string; entity?: unknown; entity_type?: string; in?: { entity?: unknown } };
  let resource: Scope['resource'];
  if (r.op === 'All') resource = { op: 'All' };
  else if ((r.op === '==' || r.op === 'in') && r.entity !== undefined)
    resource = { op: r.op, key: uidKey(r.entity) };
  else if (r.op === 'is' && typeof r.entity_type === 'string') {
    resource =
      r.in?.entity !== undefined
        ? { op: 'is', type: r.entity_type, inKey: uidKey(r.in.entity) }
        : { op: 'is', type: r.entity_type };
  } else resource = { op: 'unknown' };
  return { actions, resource };
}

/** The request's side: its action, its resource and the resource's ancestors (its server). */
export interface ScopeRequest {
  action: string;
  resourceType: string;
  resource: string;
  ancestors: readonly string[];
}

/** Can `s` match the request? (false only when Cedar's scope check is sure to fail.) */
export function scopeMayMatch(s: Scope, q: ScopeRequest): boolean {
  // actions have no groups in the MCP schema: `action in A` is `action == A`
  if (s.actions !== undefined && !s.actions.has(q.action)) return false;
  const r = s.resource;
  switch (r.op) {
    case 'All':
    case 'unknown':
      return true;
    case '==':
      return r.key === q.resource;
    case 'in':
      return r.key === q.resource || q.ancestors.includes(r.key);
    case 'is':
      if (r.type !== q.resourceType) return false;
      return r.inKey === undefined || r.inKey === q.resource || q.ancestors.includes(r.inKey);
  }
}
