// Policy documents: YAML or JSON files holding the API's Policy (what `policy get --json` prints)
// or the authoring form `{name, scope?, rules: [...]}` / `{name, scope?, cedar_v1: {text, schema_url}}`,
// or a list of either. HTTP rules (`request:*` actions with `http_resources`) and Cedar policies are
// checked and carried. Rules and policies that hubctl cannot evaluate (`cedar_v1`, unknown actions)
// are kept and marked, never dropped and never matched. Pure: no IO (`yaml` is loaded only when a YAML file is parsed).
import { HubctlError, ValidationError } from '../errors.js';
import { checkAuthoredKeys } from './authoring-keys.js';
import { JsonProblem, readJsonStrict } from './json-strict.js';
import {
  type CedarV1,
  type Domain,
  domainOfAction,
  type HttpResource,
  type Policy,
  policyType,
  type Scope,
} from './model.js';
import { parseResource } from './resource.js';
import { bounded, failAt, type KeyOffsets, placeOf } from './source-text.js';
import { domainOfActions, isHttpActionList, validateHttpResource, validateRule } from './validate.js';
import { readYamlFull, YamlProblem } from './yaml-full.js';
import { DECLINED, readYamlSubset } from './yaml-subset.js';

export interface RuleDoc {
  id?: string;
  name: string;
  actions: string[];
  /** `allow` or `deny` for evaluated rules; as written for others. */
  decision: string;
  /** Network or filesystem resources; empty for an HTTP rule. */
  resources: string[];
  /** The HTTP resources of an HTTP rule (`request:*` actions); set only then. */
  http_resources?: HttpResource[];
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
  /** The Cedar text of a `cedar_v1` policy (set only then). */
  cedar_v1?: CedarV1;
  /** Why hubctl does not evaluate this policy at all (set only then). */
  notEvaluated?: string;
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function fail(where: string, message: string): never {
  throw new ValidationError(bounded(`${where}: ${message}`));
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
  if (unknown.length > 0) {
    const name = typeof v.name === 'string' && v.name !== '' ? v.name : (id ?? `rule ${index + 1}`);
    const decision = typeof v.decision === 'string' ? v.decision : '';
    const rule: RuleDoc = { id, name, actions, decision, resources: stringsOrEmpty(v.resources) };
    if (Array.isArray(v.http_resources)) rule.http_resources = v.http_resources as HttpResource[];
    rule.notEvaluated = `its action${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} ${unknown.length > 1 ? 'are' : 'is'} not known to hubctl`;
    return rule;
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
  for (const field of ['name', 'actions', 'decision']) {
    if (v[field] === undefined) fail(where(field), `a rule needs "${field}"`);
  }
  const r = guard('name', () =>
    validateRule({ name: v.name, actions: ['read'], decision: 'allow', resources: ['/'] }),
  );
  const domain = guard('actions', () => {
    if (!Array.isArray(v.actions) || v.actions.some((a) => typeof a !== 'string')) {
      throw new ValidationError('"actions" must be a list of strings');
    }
    return domainOfActions(v.actions as string[]);
  });
  const http = guard('actions', () => isHttpActionList(v.actions as string[]));
  guard('decision', () =>
    validateRule({ name: 'x', actions: ['read'], decision: v.decision, resources: ['/'] }),
  );
  const rule: RuleDoc = {
    name: r.name,
    actions: [...new Set(v.actions as string[])],
    decision: v.decision as string,
    resources: [],
    domain,
  };
  if (http) {
    rule.http_resources = parseHttpResources(where, guard, v);
  } else {
    rule.resources = parseResources(where, guard, v, domain);
  }
  if (id !== undefined) rule.id = id;
  return rule;
}

type Guard = <T>(field: string, f: () => T) => T;

function parseResources(where: (f: string) => string, guard: Guard, v: Obj, domain: Domain): string[] {
  if (v.http_resources !== undefined && v.http_resources !== null) {
    fail(
      where('http_resources'),
      `http_resources are for HTTP rules (request:* actions); ${domain} actions take "resources"`,
    );
  }
  if (v.resources === undefined) fail(where('resources'), 'a rule needs "resources"');
  if (!Array.isArray(v.resources)) fail(where('resources'), '"resources" must be a list of strings');
  if (v.resources.length === 0) fail(where('resources'), `a rule needs at least one ${domain} resource`);
  (v.resources as unknown[]).forEach((res, i) => {
    if (typeof res !== 'string')
      fail(where(`resources[${i}]`), `a resource is a string, not ${JSON.stringify(res)}`);
    guard(`resources[${i}]`, () => parseResource(domain, res));
  });
  return v.resources as string[];
}

function parseHttpResources(where: (f: string) => string, guard: Guard, v: Obj): HttpResource[] {
  if (Array.isArray(v.resources) && v.resources.length > 0) {
    fail(where('resources'), 'an HTTP rule (request:* actions) has "http_resources" in place of "resources"');
  }
  const list = v.http_resources;
  if (list === undefined || list === null) {
    fail(
      where('http_resources'),
      'an HTTP rule (request:* actions) needs "http_resources": a list of {host, port?, path}',
    );
  }
  if (!Array.isArray(list))
    fail(where('http_resources'), '"http_resources" must be a list of {host, port?, path}');
  if (list.length === 0) fail(where('http_resources'), 'an HTTP rule needs at least one HTTP resource');
  return list.map((res, i) => guard(`http_resources[${i}]`, () => validateHttpResource(res)));
}

function parseCedar(source: string, path: string, v: unknown): CedarV1 {
  if (!isObj(v)) fail(at(source, path), 'cedar_v1 must be an object {text, schema_url}');
  if (typeof v.text !== 'string') fail(at(source, join(path, 'text')), 'the Cedar text must be a string');
  if (v.schema_url === undefined || v.schema_url === null) return { text: v.text };
  if (typeof v.schema_url !== 'string')
    fail(at(source, join(path, 'schema_url')), 'schema_url must be a string (the URL of the Cedar schema)');
  return { text: v.text, schema_url: v.schema_url };
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
  if ('cedar_v1' in v && ('rules' in v || 'allowlist_v0' in v)) {
    fail(at(source, path), 'a policy holds either rules (allowlist_v0) or cedar_v1, not both');
  }
  if ('rules' in v && !('allowlist_v0' in v)) {
    const rules = parseRules(source, join(path, 'rules'), v.rules);
    const domain = finishRules(source, join(path, 'rules'), rules);
    return withId({ name, source, type: 'allowlist_v0', scope, domain, rules }, id);
  }
  const type = v.cedar_v1 !== undefined && v.cedar_v1 !== null ? 'cedar_v1' : policyType(v);
  if (type !== 'allowlist_v0') {
    const doc: PolicyDoc = {
      name,
      source,
      type,
      scope,
      rules: [],
      notEvaluated: `it is a ${type} policy; hubctl evaluates allowlist_v0 only`,
    };
    if (type === 'cedar_v1') doc.cedar_v1 = parseCedar(source, join(path, 'cedar_v1'), v.cedar_v1);
    return withId(doc, id);
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

/**
 * The values of an authored file, read strictly: JSON without duplicate keys, or YAML (the subset
 * reader, else the full one) without duplicate keys, tags or more than a few aliases. Each problem
 * is one sentence with the file and line.
 */
async function parseText(text: string, sourceName: string, offsets: KeyOffsets): Promise<unknown[]> {
  if (text.length > MAX_POLICY_TEXT) fail(sourceName, `is larger than ${MAX_POLICY_TEXT / 1024 / 1024} MiB`);
  if (looksJson(sourceName, text)) {
    try {
      return [readJsonStrict(text, offsets)];
    } catch (err) {
      if (!(err instanceof JsonProblem)) throw err;
      // `{name: x}` is YAML too: a file not named .json that is not JSON is read as YAML
      if (/\.json$/i.test(sourceName) || !err.syntax) failAt(sourceName, text, err.offset, err.message);
    }
  }
  // Most policy files stay within a plain subset that a small reader handles without loading `yaml`.
  const quick = readYamlSubset(text, offsets);
  if (quick !== DECLINED) return quick === null ? [] : [quick];
  try {
    return await readYamlFull(text, offsets);
  } catch (err) {
    if (err instanceof YamlProblem) failAt(sourceName, text, err.offset, err.message);
    throw err;
  }
}

/**
 * Parses an authored policy file (YAML or JSON): one policy of either form, a list of them, or
 * several YAML documents. Unknown, duplicate and empty keys are refused with the closest known key
 * (authoring-keys.ts). Throws ValidationError naming the file, the line or the field path.
 */
export async function parsePolicyDocument(text: string, sourceName: string): Promise<PolicyDoc[]> {
  const offsets: KeyOffsets = new WeakMap();
  const values = await parseText(text, sourceName, offsets);
  const report = (offset: number | undefined, message: string): never =>
    failAt(sourceName, text, offset, message);
  const out: PolicyDoc[] = [];
  const multi = values.length > 1;
  values.forEach((value, d) => {
    checkAuthoredKeys(value, offsets, report);
    const base = multi ? `document ${d + 1}` : '';
    const parse = (path: string, v: unknown) => {
      try {
        out.push(parsePolicyObject(sourceName, path, v));
      } catch (err) {
        if (err instanceof ValidationError)
          throw placed(err, sourceName, text, multi ? values : [value], offsets);
        throw err;
      }
    };
    if (!Array.isArray(value)) parse(base, value);
    else
      value.forEach((p, i) => {
        parse(join(base, i), p);
      });
  });
  if (out.length === 0) fail(sourceName, 'holds no policy');
  return out;
}

/**
 * A field's error (`file: rules[2].resources: …`) with the line and column of that field added
 * (`file:7:5: rules[2].resources: …`), found by walking the field path through the values.
 */
function placed(
  err: ValidationError,
  source: string,
  text: string,
  values: readonly unknown[],
  offsets: KeyOffsets,
): ValidationError {
  const prefix = `${source}: `;
  if (!err.message.startsWith(prefix)) return err;
  const rest = err.message.slice(prefix.length);
  const path = /^((?:document \d+)?(?:\.?[A-Za-z_][A-Za-z0-9_]*|\[\d+\])*): /.exec(rest)?.[1] ?? '';
  let cur: unknown = values.length === 1 ? values[0] : undefined;
  let offset: number | undefined;
  for (const m of path.matchAll(/document (\d+)|\[(\d+)\]|\.?([A-Za-z_][A-Za-z0-9_]*)/g)) {
    if (m[1] !== undefined) cur = values[Number(m[1]) - 1];
    else if (m[2] !== undefined) {
      cur = Array.isArray(cur) ? cur[Number(m[2])] : undefined;
      // an element of a list: where its first key is
      const keys = isObj(cur) ? offsets.get(cur) : undefined;
      if (keys && keys.size > 0) offset = Math.min(...keys.values());
    } else if (isObj(cur)) {
      offset = offsets.get(cur)?.get(m[3]!) ?? offset;
      cur = cur[m[3]!];
    } else break;
  }
  if (offset === undefined) {
    const keys = isObj(cur) ? offsets.get(cur) : undefined;
    if (path === '' && keys && keys.size > 0) offset = Math.min(...keys.values());
    else return err;
  }
  return new ValidationError(`${placeOf(source, text, offset)}: ${rest}`, { hint: err.hint });
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
