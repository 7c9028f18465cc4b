// Cedar policies compiled once: each policy of each source split out, located (file and line),
// read for its effect and annotations, and handed to the engine as one preparsed set under ids of
// hubctl's own (`p0`, `p1`, …). Immutable once built; each evaluation owns its own state
// (evaluate.ts). The engine is loaded here, on first use.
import { ValidationError } from '../../errors.js';
import { lineOfOffset, positionOfByte } from './text.js';
import { type Cedar, type DetailedError, loadCedar, type PolicyJson } from './wasm.js';

/** One Cedar text to compile: a `cedar_v1` policy of a file or of the organization. */
export interface CedarSource {
  /** The hubctl policy's name. */
  name: string;
  /** Where it came from: a file name, or `policy pol_…`. */
  source: string;
  text: string;
  schemaUrl?: string;
  /** The line of `source` on which the text's first line stands; absent when unknown. */
  firstLine?: number;
}

export interface CedarPolicyInfo {
  /** The engine's id for it. */
  readonly id: string;
  /** The hubctl policy (cedar_v1 text) it is part of. */
  readonly policy: string;
  readonly source: string;
  /** Its first line: of `source` when `inFile`, else of the Cedar text. */
  readonly line: number;
  readonly inFile: boolean;
  readonly effect: 'permit' | 'forbid';
  /** `@requireApproval`'s reason ('' for none given); absent without that annotation. */
  readonly approval?: string;
  /** Its annotations, by name (null for an annotation without a value). */
  readonly annotations: Readonly<Record<string, string | null>>;
  /** It constrains the principal in its scope: it never matches, and is not evaluated. */
  readonly principalScope: boolean;
  /** Its own text, and where that starts in the source's text (in characters). */
  readonly text: string;
  readonly offset: number;
  readonly json: PolicyJson;
  /** Index of its CedarSource. */
  readonly sourceIndex: number;
}

export interface CedarPolicySet {
  readonly sources: readonly CedarSource[];
  readonly policies: readonly CedarPolicyInfo[];
  /** The preparsed set's id in the engine; undefined when no policy is evaluated. */
  readonly setId: string | undefined;
  /**
   * The names of context fields and attributes that some policy's text holds. Cedar reads a field or
   * attribute only by its name written out (`.name`, `has name`, `["name"]`), so a request leaves
   * out the others: the same answers, and less for the engine to read.
   */
  readonly mentions: ReadonlySet<string>;
  /** The engine; undefined for an empty set (no policy: every request is denied by default). */
  readonly cedar: Cedar | undefined;
}

/** "file:12", or "file (policy "x", Cedar line 3)" when the text's place in the file is unknown. */
export function placeOf(p: { source: string; line: number; inFile: boolean; policy: string }): string {
  return p.inFile ? `${p.source}:${p.line}` : `${p.source} (policy "${p.policy}", Cedar line ${p.line})`;
}

const PARSE_PREFIX = /^failed to parse polic(y|ies|y set) from string: /;

/** Cedar's first error as one sentence at a line and column of the source. */
export function parseFailure(src: CedarSource, errors: readonly DetailedError[]): ValidationError {
  const e = errors[0];
  const message = (e?.message ?? 'it does not parse').replace(PARSE_PREFIX, '').replace(/\s+/g, ' ');
  const loc = e?.sourceLocations?.[0];
  let where = src.source;
  if (loc) {
    const pos = positionOfByte(src.text, loc.start);
    where =
      src.firstLine !== undefined
        ? `${src.source}:${src.firstLine + pos.line - 1}:${pos.column}`
        : `${src.source} (policy "${src.name}", Cedar line ${pos.line}, column ${pos.column})`;
  }
  return new ValidationError(
    `${where}: the Cedar text of policy "${src.name}" does not parse: ${cut(message)}`,
  );
}

function cut(s: string, max = 300): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/** The context fields and attributes a request may carry. */
const OBSERVABLE = [
  'request_time',
  'args',
  'name',
  'readOnly',
  'destructive',
  'idempotent',
  'openWorld',
  'uri',
  'type',
  'identityURL',
  'requiresOAuth',
  'requiresNetwork',
  'command',
];

/** Engine ids of preparsed sets are process-wide: each compiled set gets its own. */
let nextSet = 0;

/** At most this many Cedar policies (statements) in one evaluation: far over the service's limits. */
const MAX_STATEMENTS = 100_000;

/** Splits, locates and reads the policies of each source; throws ValidationError for text that does not parse. */
export function splitSources(cedar: Cedar, sources: readonly CedarSource[]): CedarPolicyInfo[] {
  const out: CedarPolicyInfo[] = [];
  sources.forEach((src, sourceIndex) => {
    const parts = cedar.policySetTextToParts(src.text);
    if (parts.type === 'failure') throw parseFailure(src, parts.errors);
    if (parts.policy_templates.length > 0) {
      throw new ValidationError(
        `${src.source}: policy "${src.name}" holds a template (a policy with ?principal or ?resource); a cedar_v1 policy holds static policies only`,
      );
    }
    // The engine returns them sorted by its ids (policy0, policy1, policy10, …, policy2): back in source order.
    const ids = parts.policies.map((_, i) => `policy${i}`);
    const byId = [...ids].sort();
    const texts: string[] = new Array(parts.policies.length);
    byId.forEach((id, k) => {
      texts[Number(id.slice(6))] = parts.policies[k]!;
    });
    let cursor = 0;
    for (const text of texts) {
      const found = src.text.indexOf(text, cursor);
      const offset = found < 0 ? cursor : found;
      cursor = found < 0 ? cursor : found + text.length;
      const json = cedar.policyToJson(text);
      if (json.type === 'failure') throw parseFailure(src, json.errors);
      const annotations = (json.json.annotations ?? {}) as Record<string, string | null>;
      const textLine = lineOfOffset(src.text, offset);
      const info: CedarPolicyInfo = {
        id: `p${out.length}`,
        policy: src.name,
        source: src.source,
        line: src.firstLine !== undefined ? src.firstLine + textLine - 1 : textLine,
        inFile: src.firstLine !== undefined,
        effect: json.json.effect,
        annotations,
        principalScope: json.json.principal.op !== 'All',
        text,
        offset,
        json: json.json,
        sourceIndex,
        ...('requireApproval' in annotations ? { approval: annotations.requireApproval ?? '' } : {}),
      };
      out.push(info);
      if (out.length > MAX_STATEMENTS) {
        throw new ValidationError(`more than ${MAX_STATEMENTS} Cedar policies in one evaluation`);
      }
    }
  });
  return out;
}

/**
 * Compiles Cedar sources into one set for evaluation. Loads the engine unless there is nothing to
 * compile. Throws ValidationError for a text that does not parse or holds a template.
 */
export async function compileCedar(sources: readonly CedarSource[]): Promise<CedarPolicySet> {
  if (sources.length === 0) {
    return { sources: [], policies: [], setId: undefined, mentions: new Set(), cedar: undefined };
  }
  const cedar = await loadCedar();
  const policies = splitSources(cedar, sources);
  const evaluated = policies.filter((p) => !p.principalScope);
  let setId: string | undefined;
  if (evaluated.length > 0) {
    setId = `hubctl-${++nextSet}`;
    const staticPolicies: Record<string, string> = {};
    for (const p of evaluated) staticPolicies[p.id] = p.text;
    const r = cedar.preparsePolicySet(setId, { staticPolicies });
    if (r.type === 'failure') throw parseFailure(sources[0]!, r.errors);
  }
  return {
    sources: [...sources],
    policies,
    setId,
    mentions: new Set(OBSERVABLE.filter((name) => sources.some((s) => s.text.includes(name)))),
    cedar,
  };
}
