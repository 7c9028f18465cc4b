// Cedar policies read as data (their JSON form): attribute paths, the facts `has` establishes, the
// conditions as a conjunction, scopes that cover others. What policy lint's checks are made of.
// Pure: no IO.
import { scopeOf, uidKey } from './scope.js';
import type { PolicyJson } from './wasm.js';

export type Expr = Record<string, unknown>;

/** Every sub-expression of a policy's conditions, depth first. */
export function* walk(e: unknown): Generator<Expr> {
  if (typeof e !== 'object' || e === null) return;
  if (Array.isArray(e)) {
    for (const x of e) yield* walk(x);
    return;
  }
  const o = e as Expr;
  yield o;
  for (const [k, v] of Object.entries(o)) {
    if (k === 'Value') continue;
    yield* walk(v);
  }
}

/** `context.args.amount` for a chain of attribute accesses on a variable; undefined otherwise. */
export function pathOf(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null) return undefined;
  const o = e as Expr;
  if (typeof o.Var === 'string') return o.Var;
  const dot = o['.'] as { left: unknown; attr: string } | undefined;
  if (dot) {
    const left = pathOf(dot.left);
    return left === undefined ? undefined : `${left}.${dot.attr}`;
  }
  return undefined;
}

/** The facts `has` establishes on the true side of a conjunction (`a && b`: those of a and b). */
export function factsOf(e: unknown, out: Set<string>): void {
  if (typeof e !== 'object' || e === null) return;
  const o = e as Expr;
  const and = o['&&'] as { left: unknown; right: unknown } | undefined;
  if (and) {
    factsOf(and.left, out);
    factsOf(and.right, out);
    return;
  }
  const has = o.has as { left: unknown; attr: string | string[] } | undefined;
  if (has) {
    const base = pathOf(has.left);
    if (base === undefined) return;
    let p = base;
    for (const a of Array.isArray(has.attr) ? has.attr : [has.attr]) {
      p = `${p}.${a}`;
      out.add(p);
    }
  }
}

/** Accesses of `context.args…` not guarded by `has` on the path to them. */
export function unguardedArgs(e: unknown, facts: ReadonlySet<string>, out: string[]): void {
  if (typeof e !== 'object' || e === null) return;
  if (Array.isArray(e)) {
    for (const x of e) unguardedArgs(x, facts, out);
    return;
  }
  const o = e as Expr;
  const and = o['&&'] as { left: unknown; right: unknown } | undefined;
  if (and) {
    unguardedArgs(and.left, facts, out);
    const more = new Set(facts);
    factsOf(and.left, more);
    unguardedArgs(and.right, more, out);
    return;
  }
  const ite = o['if-then-else'] as { if: unknown; then: unknown; else: unknown } | undefined;
  if (ite) {
    unguardedArgs(ite.if, facts, out);
    const more = new Set(facts);
    factsOf(ite.if, more);
    unguardedArgs(ite.then, more, out);
    unguardedArgs(ite.else, facts, out);
    return;
  }
  const dot = o['.'] as { left: unknown; attr: string } | undefined;
  if (dot) {
    const p = pathOf(o);
    if (p?.startsWith('context.args')) {
      // every step below context must be established: context.args, then context.args.x, …
      const steps = p.split('.');
      for (let i = 2; i <= steps.length; i++) {
        const step = steps.slice(0, i).join('.');
        if (!facts.has(step)) {
          out.push(step);
          return;
        }
      }
      return;
    }
  }
  const has = o.has as { left: unknown } | undefined;
  if (has) {
    // `context.args has x` reads context.args: it needs `context has args` first
    unguardedArgs(has.left, facts, out);
    return;
  }
  for (const [k, v] of Object.entries(o)) if (k !== 'Value') unguardedArgs(v, facts, out);
}

/** The conditions as one conjunction, in Cedar's order (`unless {e}` is `!e`). */
export function conjuncts(p: PolicyJson): string[] {
  const out: string[] = [];
  const flat = (e: unknown): void => {
    const and = (e as Expr)['&&'] as { left: unknown; right: unknown } | undefined;
    if (and) {
      flat(and.left);
      flat(and.right);
    } else out.push(JSON.stringify(e));
  };
  for (const c of p.conditions) {
    if (c.kind === 'when') flat(c.body);
    else out.push(JSON.stringify({ '!': { arg: c.body } }));
  }
  return out;
}

/** The actions a scope names, as keys; undefined for every action. */
export function actionsOf(p: PolicyJson): ReadonlySet<string> | undefined {
  return scopeOf(p).actions;
}

/** Does forbid f's scope cover permit p's (every request in p's scope is in f's)? */
export function scopeCovers(f: PolicyJson, p: PolicyJson): boolean {
  const fa = actionsOf(f);
  if (fa !== undefined) {
    const pa = actionsOf(p);
    if (pa === undefined || [...pa].some((x) => !fa.has(x))) return false;
  }
  const fr = f.resource as { op: string; entity?: unknown; entity_type?: string; in?: { entity?: unknown } };
  const pr = p.resource as { op: string; entity?: unknown; entity_type?: string; in?: { entity?: unknown } };
  if (fr.op === 'All') return true;
  if (fr.op === '==' || fr.op === 'in') {
    if (pr.op !== '==' && pr.op !== 'in' && !(pr.op === 'is' && pr.in)) return false;
    const pe = pr.op === 'is' ? pr.in!.entity : pr.entity;
    if (uidKey(fr.entity) !== uidKey(pe)) return false;
    return fr.op === 'in' || pr.op === '==';
  }
  if (fr.op === 'is') {
    if (pr.op !== 'is' || pr.entity_type !== fr.entity_type) return false;
    if (!fr.in) return true;
    return pr.in !== undefined && uidKey(pr.in.entity) === uidKey(fr.in.entity);
  }
  return false;
}

const STRING_ATTRS = new Set(['name', 'uri', 'type', 'identityURL', 'command']);

export function isStringExpr(e: unknown): boolean {
  const o = e as Expr;
  if (typeof o?.Value === 'string') return true;
  const p = pathOf(e);
  return p?.startsWith('resource.') === true && STRING_ATTRS.has(p.slice(9)) && p.split('.').length === 2;
}

export function isSetExpr(e: unknown): boolean {
  const o = e as Expr;
  if (Array.isArray(o?.Value) || o?.Set !== undefined) return true;
  const p = pathOf(e);
  return p === 'resource.args';
}

export function readsRegister(p: PolicyJson): boolean {
  const a = actionsOf(p);
  return a?.has(`MCP::Action::${JSON.stringify('register')}`) === true;
}
