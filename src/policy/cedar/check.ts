// Cedar policies checked without a server: what the service refuses (text that does not parse, `@id`
// annotations, and, for the MCP schema URL, what fails validation against hubctl's MCP schema), and
// what `policy lint` warns about: policies that do not do what they seem to. Pure: no IO.
import { MCP_SCHEMA_TEXT, MCP_SCHEMA_URL } from './mcp-schema.js';
import { type CedarPolicyInfo, type CedarSource, placeOf, splitSources } from './policy-set.js';
import { scopeOf, uidKey } from './scope.js';
import { lineOfOffset, positionOfByte } from './text.js';
import type { Cedar, PolicyJson } from './wasm.js';

export type CedarLintCode =
  | 'CEDAR_SCHEMA'
  | 'CEDAR_ID_ANNOTATION'
  | 'PRINCIPAL_CLAUSE'
  | 'REQUEST_TIME_ON_REGISTER'
  | 'UNGUARDED_ARGS'
  | 'CONTAINS_ON_STRING'
  | 'LIKE_ON_SET'
  | 'APPROVAL_ANNOTATION'
  | 'SHADOWED_PERMIT';

export interface CedarWarning {
  code: CedarLintCode;
  policy: string;
  /** Unused for Cedar (the shape of allowlist warnings): ''. */
  rule: string;
  resource: string;
  source: string;
  /** The line of `source` (or of the Cedar text, when `in_file` is false). */
  line: number;
  in_file: boolean;
  message: string;
}

type Expr = Record<string, unknown>;

/** The line (of the file when known) of the first match of `re` in a policy's text. */
function lineOf(p: CedarPolicyInfo, re?: RegExp): number {
  if (!re) return p.line;
  const m = re.exec(p.text);
  if (!m) return p.line;
  return p.line + lineOfOffset(p.text, m.index) - 1;
}

function warning(p: CedarPolicyInfo, code: CedarLintCode, message: string, line = p.line): CedarWarning {
  const at = placeOf({ ...p, line });
  return {
    code,
    policy: p.policy,
    rule: '',
    resource: '',
    source: p.source,
    line,
    in_file: p.inFile,
    message: `${at}: ${message}`,
  };
}

/** Every sub-expression of a policy's conditions, depth first. */
function* walk(e: unknown): Generator<Expr> {
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
function pathOf(e: unknown): string | undefined {
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
function factsOf(e: unknown, out: Set<string>): void {
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
function unguardedArgs(e: unknown, facts: ReadonlySet<string>, out: string[]): void {
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
function conjuncts(p: PolicyJson): string[] {
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
function actionsOf(p: PolicyJson): ReadonlySet<string> | undefined {
  return scopeOf(p).actions;
}

/** Does forbid f's scope cover permit p's (every request in p's scope is in f's)? */
function scopeCovers(f: PolicyJson, p: PolicyJson): boolean {
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

function isStringExpr(e: unknown): boolean {
  const o = e as Expr;
  if (typeof o?.Value === 'string') return true;
  const p = pathOf(e);
  return p?.startsWith('resource.') === true && STRING_ATTRS.has(p.slice(9)) && p.split('.').length === 2;
}

function isSetExpr(e: unknown): boolean {
  const o = e as Expr;
  if (Array.isArray(o?.Value) || o?.Set !== undefined) return true;
  const p = pathOf(e);
  return p === 'resource.args';
}

function readsRegister(p: PolicyJson): boolean {
  const a = actionsOf(p);
  return a?.has(`MCP::Action::${JSON.stringify('register')}`) === true;
}

const APPROVAL_LIKE = /approv|consent|confirm|^(require|need)s?_?ask|^ask/i;

/** The warnings of one policy's own shape (no other policy, no schema). */
function shapeWarnings(p: CedarPolicyInfo): CedarWarning[] {
  const out: CedarWarning[] = [];
  const j = p.json;
  if ('id' in p.annotations) {
    out.push(
      warning(
        p,
        'CEDAR_ID_ANNOTATION',
        `policy "${p.policy}": @id annotations are refused by the service`,
        lineOf(p, /@id\b/),
      ),
    );
  }
  for (const name of Object.keys(p.annotations)) {
    if (name !== 'requireApproval' && APPROVAL_LIKE.test(name)) {
      out.push(
        warning(
          p,
          'APPROVAL_ANNOTATION',
          `@${name} does nothing: only @requireApproval("reason") on a permit asks for approval`,
          lineOf(p, new RegExp(`@${name}\\b`)),
        ),
      );
    }
  }
  if (p.approval !== undefined && p.effect === 'forbid') {
    out.push(
      warning(
        p,
        'APPROVAL_ANNOTATION',
        '@requireApproval on a forbid does nothing: a matching forbid denies',
        lineOf(p, /@requireApproval\b/),
      ),
    );
  }
  const exprs = [...walk(j.conditions)];
  if (j.principal.op !== 'All' || exprs.some((e) => e.Var === 'principal')) {
    out.push(
      warning(
        p,
        'PRINCIPAL_CLAUSE',
        `this ${p.effect} has a clause about the principal, which never matches: the policy's scope (org-wide or teams) supplies the principal`,
        lineOf(
          p,
          j.principal.op !== 'All' ? /\bprincipal\s*(==|in|is)\b/ : /\bprincipal\s*(\.|==|in\b|is\b|has\b)/,
        ),
      ),
    );
  }
  if (
    readsRegister(j) &&
    exprs.some((e) => pathOf(e) === 'context.request_time' || (e.has as Expr)?.attr === 'request_time')
  ) {
    out.push(
      warning(
        p,
        'REQUEST_TIME_ON_REGISTER',
        p.effect === 'permit'
          ? 'context.request_time is not set on register: this permit never matches a registration'
          : 'context.request_time is not set on register: this forbid never blocks a registration',
        lineOf(p, /request_time/),
      ),
    );
  }
  const unguarded: string[] = [];
  const facts = new Set<string>();
  for (const c of j.conditions) {
    unguardedArgs(c.body, c.kind === 'when' ? facts : new Set(facts), unguarded);
    if (c.kind === 'when') factsOf(c.body, facts);
  }
  for (const path of [...new Set(unguarded)]) {
    const guard =
      path === 'context.args'
        ? '`context has args`'
        : `\`${path.slice(0, path.lastIndexOf('.'))} has ${path.slice(path.lastIndexOf('.') + 1)}\``;
    out.push(
      warning(
        p,
        'UNGUARDED_ARGS',
        p.effect === 'forbid'
          ? `${path} is read without ${guard} before it: when a call has no such argument the forbid errors, and an erroring forbid does not block`
          : `${path} is read without ${guard} before it: when a call has no such argument the permit errors and does not match`,
        lineOf(p, new RegExp(path.replace(/\./g, '\\.'))),
      ),
    );
  }
  for (const e of exprs) {
    for (const op of ['contains', 'containsAll', 'containsAny']) {
      const c = e[op] as { left: unknown } | undefined;
      if (c && isStringExpr(c.left)) {
        out.push(
          warning(
            p,
            'CONTAINS_ON_STRING',
            `.${op}() is for sets; on a string it is an error (the policy is skipped): use like "*text*"`,
            lineOf(p, new RegExp(`\\.${op}\\s*\\(`)),
          ),
        );
      }
    }
    const like = e.like as { left: unknown } | undefined;
    if (like && isSetExpr(like.left)) {
      out.push(
        warning(
          p,
          'LIKE_ON_SET',
          'like is for strings; on a set it is an error (the policy is skipped): use .contains("value")',
          lineOf(p, /\blike\b/),
        ),
      );
    }
  }
  return out;
}

interface SchemaProblem {
  warning: CedarWarning;
  /** The text Cedar points at. */
  span: string;
  /** The policy's engine id. */
  id: string;
}

/** What each specific warning is about, in the text a schema error points at. */
const SPECIFIC: Partial<Record<CedarLintCode, RegExp>> = {
  PRINCIPAL_CLAUSE: /\bprincipal\b/,
  REQUEST_TIME_ON_REGISTER: /request_time/,
  CONTAINS_ON_STRING: /\.contains(All|Any)?\s*\(/,
  LIKE_ON_SET: /\blike\b/,
};

/** Schema problems of the policies of one source, against the MCP schema; those from `context.args` left out. */
function schemaProblems(cedar: Cedar, policies: readonly CedarPolicyInfo[]): SchemaProblem[] {
  const staticPolicies: Record<string, string> = {};
  for (const p of policies) staticPolicies[p.id] = p.text;
  const answer = cedar.validate({ schema: MCP_SCHEMA_TEXT, policies: { staticPolicies } });
  if (answer.type === 'failure') return [];
  const byId = new Map(policies.map((p) => [p.id, p]));
  const out: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const e of answer.validationErrors) {
    const p = byId.get(e.policyId);
    if (!p) continue;
    const loc = e.error.sourceLocations?.[0];
    const span = loc
      ? p.text.slice(positionOfByte(p.text, loc.start).offset, positionOfByte(p.text, loc.end).offset)
      : '';
    // args is any object: the schema cannot type it (policy lint checks its guards instead)
    if (span.includes('context.args') || /attribute `args`|`args` in context/.test(e.error.message)) continue;
    const key = `${p.id} ${loc?.start} ${loc?.end}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const line = loc ? p.line + positionOfByte(p.text, loc.start).line - 1 : p.line;
    const message = e.error.message.replace(/^for policy `[^`]*`, /, '').replace(/\s+/g, ' ');
    out.push({
      span,
      id: p.id,
      warning: warning(p, 'CEDAR_SCHEMA', `does not validate against the MCP schema: ${message}`, line),
    });
  }
  return out;
}

export function isMcpSchema(src: CedarSource): boolean {
  return src.schemaUrl === MCP_SCHEMA_URL;
}

/** Lint of Cedar sources, together (a permit of one may be shadowed by a forbid of another). Throws ValidationError when a text does not parse. */
export function lintCedar(cedar: Cedar, sources: readonly CedarSource[]): CedarWarning[] {
  const policies = splitSources(cedar, sources);
  const out: CedarWarning[] = [];
  const shapes = new Map<string, CedarWarning[]>();
  for (const p of policies) {
    const w = shapeWarnings(p);
    shapes.set(p.id, w);
    out.push(...w);
  }
  sources.forEach((src, i) => {
    if (!isMcpSchema(src)) return;
    const mine = policies.filter((p) => p.sourceIndex === i);
    for (const { warning: w, span, id } of schemaProblems(cedar, mine)) {
      // one finding once: the specific warning says it better than the type error it causes
      const specific = (shapes.get(id) ?? []).some(
        (s) => SPECIFIC[s.code] !== undefined && (SPECIFIC[s.code]!.test(span) || s.line === w.line),
      );
      if (!specific) out.push(w);
    }
  });
  for (const p of policies) {
    if (p.effect !== 'permit' || p.principalScope) continue;
    const pc = new Set(conjuncts(p.json));
    for (const f of policies) {
      if (f.effect !== 'forbid' || f.principalScope) continue;
      if (!scopeCovers(f.json, p.json)) continue;
      if (!conjuncts(f.json).every((c) => pc.has(c))) continue;
      out.push(
        warning(
          p,
          'SHADOWED_PERMIT',
          `this permit never allows anything: the forbid at ${placeOf(f)} matches every request it matches`,
        ),
      );
      break;
    }
  }
  const order = new Map(sources.map((s, i) => [s.source, i]));
  return out.sort((a, b) => (order.get(a.source) ?? 0) - (order.get(b.source) ?? 0) || a.line - b.line);
}

/**
 * What the service refuses, or hubctl refuses to send: one sentence each. Empty when the text may
 * be sent. Schema problems count only for the MCP schema URL.
 */
export function sendProblems(cedar: Cedar, src: CedarSource): string[] {
  let policies: CedarPolicyInfo[];
  try {
    policies = splitSources(cedar, [src]);
  } catch (err) {
    return [(err as Error).message];
  }
  const out: string[] = [];
  for (const p of policies) {
    if ('id' in p.annotations) {
      out.push(
        `${placeOf({ ...p, line: lineOf(p, /@id\b/) })}: policy "${p.policy}" carries an @id annotation, which the service refuses`,
      );
    }
  }
  if (isMcpSchema(src)) {
    for (const { warning: w } of schemaProblems(cedar, policies)) out.push(w.message);
  }
  return out;
}
