// The keys an authored policy file may hold, in one table: the strict reader refuses every other
// key (with the closest known one as a "did you mean"), and `policy schema` builds its JSON Schema
// from the same table (authoring-schema.ts), so the two cannot disagree. A new key (a new rule set,
// a new scope field) is one line here plus its schema fragment, which the type checker asks for.
// Pure: no IO.
import type { KeyOffsets } from './source-text.js';

/** The kinds of object an authored file holds. */
export type ShapeName = 'policy' | 'scope' | 'rule' | 'http_resource' | 'cedar_v1' | 'allowlist_v0';

/** What a key holds: a plain value, an object of another shape, or a list (of values or of objects). */
export type KeyValue = 'value' | { object: ShapeName } | { list: ShapeName | 'value' };

interface Shape {
  /** How messages name an object of this shape. */
  label: string;
  /** The keys of the authoring form (`policy export` writes these; the JSON Schema lists them). */
  keys: Record<string, KeyValue>;
  /** Keys of the API's form (`policy get --json`), which `eval -f` and `lint -f` also read. */
  apiKeys?: Record<string, KeyValue>;
}

export const AUTHORED_SHAPES = {
  policy: {
    label: 'a policy',
    keys: {
      name: 'value',
      scope: { object: 'scope' },
      rules: { list: 'rule' },
      cedar_v1: { object: 'cedar_v1' },
    },
    apiKeys: {
      id: 'value',
      org: 'value',
      created_at: 'value',
      updated_at: 'value',
      allowlist_v0: { object: 'allowlist_v0' },
    },
  },
  scope: { label: 'a scope', keys: { teams: { list: 'value' } } },
  rule: {
    label: 'a rule',
    keys: {
      name: 'value',
      actions: { list: 'value' },
      decision: 'value',
      resources: { list: 'value' },
      http_resources: { list: 'http_resource' },
    },
    apiKeys: { id: 'value' },
  },
  http_resource: { label: 'an HTTP resource', keys: { host: 'value', port: 'value', path: 'value' } },
  cedar_v1: { label: 'cedar_v1', keys: { text: 'value', schema_url: 'value' } },
  allowlist_v0: { label: 'allowlist_v0', keys: { domain: 'value', rules: { list: 'rule' } } },
} as const satisfies Record<ShapeName, Shape>;

/** The authoring keys of one shape (what the JSON Schema must describe). */
export type AuthoredKey<S extends ShapeName> = keyof (typeof AUTHORED_SHAPES)[S]['keys'];

/** The keys that hold a policy's rule set: a file names exactly one. */
const RULE_SETS = ['rules', 'cedar_v1', 'allowlist_v0'];
/** Keys that only the API's form has: a policy carrying one of them may come without a rule set. */
const API_ONLY = ['id', 'org', 'created_at', 'updated_at'];

/** Optimal string alignment distance (Levenshtein plus swapped neighbours), for "did you mean". */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** The known key closest to `key`, when it is close enough to be a slip (or a key cut short). */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  const k = key.slice(0, 64).toLowerCase();
  // one slip in a short key, two in a longer one; nothing for one or two letters
  const allowed = k.length < 3 ? 0 : k.length < 5 ? 1 : 2;
  let best: string | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (const c of known) {
    const d = k.length >= 4 && c.startsWith(k) ? 1 : editDistance(k, c);
    if (d < bestD) {
      best = c;
      bestD = d;
    }
  }
  return bestD <= allowed ? best : undefined;
}

function shapeOf(name: ShapeName): Shape {
  return AUTHORED_SHAPES[name];
}

function allKeys(s: Shape): string[] {
  return [...Object.keys(s.keys), ...Object.keys(s.apiKeys ?? {})];
}

/** A key as it is shown: quoted, cut, control characters escaped. */
function shownKey(key: string): string {
  const cut = key.length > 40 ? `${key.slice(0, 40)}…` : key;
  return JSON.stringify(cut).replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function unknownKey(shape: ShapeName, key: string): string {
  const s = shapeOf(shape);
  const known = allKeys(s);
  const near = closestKey(key, known);
  // a key of a nested object written one level too high (`teams:` not indented under `scope:`)
  const nested = Object.entries(s.keys).find(
    ([, v]) => typeof v === 'object' && 'object' in v && Object.hasOwn(shapeOf(v.object).keys, key),
  )?.[0];
  const hint =
    nested !== undefined
      ? `did you mean ${JSON.stringify(`${nested}.${key}`)} (indented under ${JSON.stringify(nested)})?`
      : near !== undefined
        ? `did you mean ${JSON.stringify(near)}?`
        : `did you mean one of ${Object.keys(s.keys).join(', ')}?`;
  return `unknown key ${shownKey(key)} in ${s.label}; ${hint}`;
}

/** Reports a problem at the offset of a key (undefined: not known) and does not return. */
export type Report = (offset: number | undefined, message: string) => never;

function firstOffset(offsets: KeyOffsets, obj: object): number | undefined {
  const m = offsets.get(obj);
  if (!m) return undefined;
  let min: number | undefined;
  for (const v of m.values()) if (min === undefined || v < min) min = v;
  return min;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkObject(
  shape: ShapeName,
  v: Record<string, unknown>,
  offsets: KeyOffsets,
  report: Report,
): void {
  const s = shapeOf(shape);
  const at = offsets.get(v);
  for (const key of Object.keys(v)) {
    const kind: KeyValue | undefined = Object.hasOwn(s.keys, key)
      ? (s.keys as Record<string, KeyValue>)[key]
      : s.apiKeys && Object.hasOwn(s.apiKeys, key)
        ? (s.apiKeys as Record<string, KeyValue>)[key]
        : undefined;
    if (kind === undefined) report(at?.get(key), unknownKey(shape, key));
    if (kind === 'value') continue;
    const value = v[key];
    if (value === null || value === undefined) {
      // `rules:` with nothing after it reads as no rules; `scope:` as org-wide: say it, never guess
      report(
        at?.get(key),
        `${JSON.stringify(key)} of ${s.label} is empty; did you mean ${JSON.stringify(`${key}: ${'list' in kind ? '[]' : '{}'}`)}, or is what belongs under it not indented?`,
      );
    }
    if ('object' in kind) {
      if (isObj(value)) checkObject(kind.object, value, offsets, report);
    } else if (kind.list !== 'value' && Array.isArray(value)) {
      for (const item of value) if (isObj(item)) checkObject(kind.list, item, offsets, report);
    }
  }
  if (shape === 'policy') {
    const sets = RULE_SETS.filter((k) => Object.hasOwn(v, k));
    if (sets.length > 1) {
      report(
        at?.get(sets[1]!),
        `a policy holds one of ${RULE_SETS.join(', ')}, not ${sets.join(' and ')}; did you mean two policies?`,
      );
    }
    if (sets.length === 0 && !API_ONLY.some((k) => Object.hasOwn(v, k))) {
      const name = typeof v.name === 'string' ? ` ${shownKey(v.name)}` : '';
      report(
        firstOffset(offsets, v),
        `policy${name} has no "rules"; did you mean "rules: []" for a policy without rules?`,
      );
    }
  }
}

/**
 * Checks the keys of an authored file's value (one policy, or a list of them) against the table:
 * unknown keys, empty objects and lists, a policy with no rule set or two. Values of the wrong type
 * are left to the document parser, which says what each field must be.
 */
export function checkAuthoredKeys(value: unknown, offsets: KeyOffsets, report: Report): void {
  const list = Array.isArray(value) ? value : [value];
  for (const p of list) if (isObj(p)) checkObject('policy', p, offsets, report);
}
