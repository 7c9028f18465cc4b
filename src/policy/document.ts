// Policy documents: YAML or JSON files holding the API's Policy (what `policy get --json` prints)
// or the authoring form `{name, scope?, rules: [...]}`, or a list of either. Rules and policies that
// hubctl cannot evaluate (`cedar_v1`, `http_resources`, unknown actions) are kept and marked, never
// dropped and never matched. Pure: no IO (`yaml` is loaded only when a YAML file is parsed).
import { HubctlError, ValidationError } from '../errors.js';
import { type Domain, domainOfAction, type Policy, policyType, type Scope } from './model.js';
import { parseResource } from './resource.js';
import { domainOfActions, validateRule } from './validate.js';
import { DECLINED, readYamlSubset } from './yaml-subset.js';

export interface RuleDoc {
  id?: string;
  name: string;
  actions: string[];
  /** `allow` or `deny` for evaluated rules; as written for others. */
  decision: string;
  resources: string[];
  domain?: Domain;
  /** Why hubctl does not evaluate this rule (set only then). */
  notEvaluated?: string;
}

export interface PolicyDoc {
  id?: string;
  name: string;
  /** Where it came from: a file name, or `live` for a fetched policy. */
  source: string;
  /** Rule-set format: `allowlist_v0`, or another (`cedar_v1`) that is not evaluated. */
  type: string;
  scope: Scope;
  domain?: Domain;
  rules: RuleDoc[];
  /** Why hubctl does not evaluate this policy at all (set only then). */
  notEvaluated?: string;
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fail(where: string, message: string): never {
  throw new ValidationError(`${where}: ${message}`);
}

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** Display form of a location: `file.yaml` or `file.yaml: rules[2].resources`. */
function at(source: string, path: string): string {
  return path === '' ? source : `${source}: ${path}`;
}

function parseScope(source: string, path: string, v: unknown): Scope {
  if (v === undefined || v === null) return {};
  if (!isObj(v)) fail(at(source, path), 'scope must be an object like {teams: [<uuid>, …]}');
  const teams = v.teams;
  if (teams === undefined || teams === null) return {};
  if (!Array.isArray(teams) || teams.some((t) => typeof t !== 'string')) {
    fail(at(source, join(path, 'teams')), 'teams must be a list of team UUIDs');
  }
  return { teams: teams as string[] };
}

function stringsOrEmpty(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function parseRule(source: string, path: string, v: unknown, index: number): RuleDoc {
  if (!isObj(v)) fail(at(source, path), 'a rule must be an object {name, actions, decision, resources}');
  const id = typeof v.id === 'string' ? v.id : undefined;
  const actions = stringsOrEmpty(v.actions);
  const unknown = actions.filter((a) => domainOfAction(a) === undefined);
  let notEvaluated: string | undefined;
  if (v.http_resources !== undefined) notEvaluated = 'it has http_resources (a newer rule format)';
  else if (unknown.length > 0)
    notEvaluated = `its action${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not known to hubctl`;
  if (notEvaluated) {
    const name = typeof v.name === 'string' && v.name !== '' ? v.name : (id ?? `rule ${index + 1}`);
    const decision = typeof v.decision === 'string' ? v.decision : '';
    return { id, name, actions, decision, resources: stringsOrEmpty(v.resources), notEvaluated };
  }
  for (const field of ['name', 'actions', 'decision', 'resources']) {
    if (v[field] === undefined) fail(at(source, join(path, field)), `a rule needs "${field}"`);
  }
  const where = (field: string) => at(source, join(path, field));
  const guard = <T>(field: string, f: () => T): T => {
    try {
      return f();
    } catch (err) {
      if (err instanceof HubctlError) fail(where(field), err.message);
      throw err;
    }
  };
  const r = guard('name', () =>
    validateRule({ name: v.name, actions: ['read'], decision: 'allow', resources: ['/'] }),
  );
  const domain = guard('actions', () => {
    if (!Array.isArray(v.actions) || v.actions.some((a) => typeof a !== 'string')) {
      throw new ValidationError('"actions" must be a list of strings');
    }
    return domainOfActions(v.actions as string[]);
  });
  guard('decision', () =>
    validateRule({ name: 'x', actions: ['read'], decision: v.decision, resources: ['/'] }),
  );
  if (!Array.isArray(v.resources)) fail(where('resources'), '"resources" must be a list of strings');
  if (v.resources.length === 0) fail(where('resources'), `a rule needs at least one ${domain} resource`);
  (v.resources as unknown[]).forEach((res, i) => {
    if (typeof res !== 'string')
      fail(where(`resources[${i}]`), `a resource is a string, not ${JSON.stringify(res)}`);
    guard(`resources[${i}]`, () => parseResource(domain, res));
  });
  const rule: RuleDoc = {
    name: r.name,
    actions: [...new Set(v.actions as string[])],
    decision: v.decision as string,
    resources: v.resources as string[],
    domain,
  };
  if (id !== undefined) rule.id = id;
  return rule;
}

function finishRules(source: string, path: string, rules: RuleDoc[]): Domain | undefined {
  let domain: Domain | undefined;
  let first = -1;
  rules.forEach((r, i) => {
    if (!r.domain) return;
    if (domain && r.domain !== domain) {
      fail(
        at(source, join(join(path, i), 'actions')),
        `rule "${r.name}" is ${r.domain} but rule "${rules[first]!.name}" is ${domain}; a policy holds rules of one domain`,
      );
    }
    if (!domain) {
      domain = r.domain;
      first = i;
    }
  });
  return domain;
}

function parseRules(source: string, path: string, v: unknown): RuleDoc[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) fail(at(source, path), 'rules must be a list');
  return v.map((r, i) => parseRule(source, join(path, i), r, i));
}

function policyName(source: string, path: string, v: Obj): string {
  if (typeof v.name !== 'string' || v.name.trim() === '')
    fail(at(source, join(path, 'name')), 'a policy needs a non-empty name');
  return v.name;
}

/** One policy object of either form, at `path` inside `source`. */
function parsePolicyObject(source: string, path: string, v: unknown): PolicyDoc {
  if (!isObj(v))
    fail(at(source, path), 'a policy must be an object (the API Policy, or {name, scope?, rules})');
  const name = policyName(source, path, v);
  const id = typeof v.id === 'string' ? v.id : undefined;
  const scope = parseScope(source, join(path, 'scope'), v.scope);
  if ('rules' in v && !('allowlist_v0' in v)) {
    const rules = parseRules(source, join(path, 'rules'), v.rules);
    const domain = finishRules(source, join(path, 'rules'), rules);
    return withId({ name, source, type: 'allowlist_v0', scope, domain, rules }, id);
  }
  const type = policyType(v);
  if (type !== 'allowlist_v0') {
    return withId(
      {
        name,
        source,
        type,
        scope,
        rules: [],
        notEvaluated: `it is a ${type} policy; hubctl evaluates allowlist_v0 only`,
      },
      id,
    );
  }
  const set = v.allowlist_v0;
  if (set !== undefined && set !== null && !isObj(set))
    fail(at(source, join(path, 'allowlist_v0')), 'must be an object {domain?, rules}');
  const rulesPath = join(join(path, 'allowlist_v0'), 'rules');
  const rules = isObj(set) ? parseRules(source, rulesPath, set.rules) : [];
  const domain = finishRules(source, rulesPath, rules);
  if (isObj(set) && set.domain !== undefined && domain !== undefined && set.domain !== domain) {
    fail(
      at(source, join(join(path, 'allowlist_v0'), 'domain')),
      `says ${String(set.domain)} but the rules are ${domain}`,
    );
  }
  return withId({ name, source, type, scope, domain, rules }, id);
}

function withId(doc: PolicyDoc, id: string | undefined): PolicyDoc {
  if (doc.domain === undefined) delete doc.domain;
  return id === undefined ? doc : { id, ...doc };
}

/** A policy as the governance API returned it, as a document (`source` defaults to `live`). */
export function policyDocFromApi(p: Policy, source = 'live'): PolicyDoc {
  return parsePolicyObject(source, `policy ${JSON.stringify(p?.name ?? p?.id ?? '?')}`, p);
}

function looksJson(sourceName: string, text: string): boolean {
  if (/\.json$/i.test(sourceName)) return true;
  const t = text.trimStart();
  return t.startsWith('{') || t.startsWith('[');
}

/** Policy files larger than this are refused before they are parsed (10,000 rules take ~2 MiB). */
const MAX_POLICY_TEXT = 16 * 1024 * 1024;
/** Alias expansions allowed in one YAML document: plenty for anchors, nothing for a "billion laughs". */
const MAX_YAML_ALIASES = 100;

/** The value of one YAML document, with `yaml`'s own exceptions said as one plain sentence. */
function yamlValue(doc: { toJS(o: { maxAliasCount: number }): unknown }, sourceName: string): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (err) {
    const message = (err as Error).message ?? '';
    const alias = /^Unresolved alias[^:]*: (.*)$/.exec(message)?.[1];
    if (alias !== undefined)
      fail(
        sourceName,
        `not valid YAML: *${alias} is read by YAML as an alias (a value starting with "*"); quote it: "*${alias}"`,
      );
    if (/alias count/i.test(message))
      fail(sourceName, `not valid YAML: its aliases expand past ${MAX_YAML_ALIASES} nodes (an alias bomb?)`);
    fail(sourceName, `not valid YAML: ${message.split('\n')[0]}`);
  }
}

async function parseText(text: string, sourceName: string): Promise<unknown[]> {
  if (text.length > MAX_POLICY_TEXT) fail(sourceName, `is larger than ${MAX_POLICY_TEXT / 1024 / 1024} MiB`);
  if (looksJson(sourceName, text)) {
    try {
      return [JSON.parse(text)];
    } catch (err) {
      if (/\.json$/i.test(sourceName)) fail(sourceName, `not valid JSON: ${(err as Error).message}`);
    }
  }
  // Most policy files stay within a plain subset that a small reader handles without loading `yaml`.
  const quick = readYamlSubset(text);
  if (quick !== DECLINED) return quick === null ? [] : [quick];
  const YAML = await import('yaml');
  const docs = YAML.parseAllDocuments(text, { prettyErrors: true });
  const list = Array.isArray(docs) ? docs : [docs];
  const out: unknown[] = [];
  for (const d of list) {
    const e = d.errors[0];
    // the first line of the message; the code frame after it ends that line with a colon
    if (e) fail(sourceName, `not valid YAML: ${e.message.split('\n')[0]!.replace(/:$/, '')}`);
    const value = yamlValue(d, sourceName);
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

/**
 * Parses a policy file (YAML or JSON): one policy of either form, a list of them, or several YAML
 * documents. Throws ValidationError naming the file and the field path.
 */
export async function parsePolicyDocument(text: string, sourceName: string): Promise<PolicyDoc[]> {
  const values = await parseText(text, sourceName);
  const out: PolicyDoc[] = [];
  const multi = values.length > 1;
  values.forEach((value, d) => {
    const base = multi ? `document ${d + 1}` : '';
    if (!Array.isArray(value)) {
      out.push(parsePolicyObject(sourceName, base, value));
      return;
    }
    value.forEach((p, i) => {
      out.push(parsePolicyObject(sourceName, join(base, i), p));
    });
  });
  if (out.length === 0) fail(sourceName, 'holds no policy');
  return out;
}

/**
 * The policies that apply to a member of `teams` (decisions §4): every organization-wide policy
 * plus the policies scoped to any of those teams. Without teams, the organization-wide ones only.
 */
export function applicablePolicies<T extends { scope?: Scope }>(
  policies: readonly T[],
  teams: readonly string[] = [],
): T[] {
  const wanted = new Set(teams);
  return policies.filter((p) => {
    const scoped = p.scope?.teams ?? [];
    return scoped.length === 0 || scoped.some((t) => wanted.has(t));
  });
}
