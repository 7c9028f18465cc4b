// Cedar policies checked without a server: what the service refuses (text that does not parse, `@id`
// annotations, and, for the MCP schema URL, what fails validation against hubctl's MCP schema), and
// what `policy lint` warns about: policies that do not do what they seem to. Pure: no IO.
import {
  conjuncts,
  type Expr,
  factsOf,
  isSetExpr,
  isStringExpr,
  pathOf,
  readsRegister,
  scopeCovers,
  unguardedArgs,
  walk,
} from './ast.js';
import { MCP_SCHEMA_TEXT, MCP_SCHEMA_URL } from './mcp-schema.js';
import { type CedarPolicyInfo, type CedarSource, placeOf, splitSources } from './policy-set.js';
import { lineOfOffset, positionOfByte } from './text.js';
import type { Cedar } from './wasm.js';

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

/** Permit × forbid pairs compared for shadowing, at most. */
const MAX_SHADOW_PAIRS = 4_000_000;

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
  const forbids = policies
    .filter((f) => f.effect === 'forbid' && !f.principalScope)
    .map((f) => ({ f, conds: conjuncts(f.json) }));
  const permits = policies.filter((p) => p.effect === 'permit' && !p.principalScope);
  // pairwise: bounded, so that a huge set is linted in seconds (shadowing is then not looked for)
  const pairsOk = permits.length * forbids.length <= MAX_SHADOW_PAIRS;
  for (const p of pairsOk ? permits : []) {
    const pc = new Set(conjuncts(p.json));
    for (const { f, conds } of forbids) {
      if (!scopeCovers(f.json, p.json)) continue;
      if (!conds.every((c) => pc.has(c))) continue;
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
