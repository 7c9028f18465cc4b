// The results that many requests share: one per compiled entry (that entry alone matched), the
// default deny, and a bounded cache of results of two entries. Each is frozen and carries its JSON,
// rendered once; the single-entry ones and the default deny are numbered ("codes"), and the UTF-8
// bytes of their batch line tails lie back to back in one array, so that `--batch` writes a decision
// from an int without loading the result object at all. Pure: no IO.

import { safeJson } from '../json-text.js';
import type { Entry, EvalResult, MatchedRule, NotEvaluated } from './types.js';

const DECISION_JSON: unique symbol = Symbol('decisionJson');

/** A shared result's JSON, rendered when a writer first asks; a holder, as the result is frozen. */
type Rendered = EvalResult & { [DECISION_JSON]?: { json: string | undefined } };

function renderDecisionJson(r: EvalResult): string {
  return `"decision":"${r.decision}","reason":${safeJson(r.reason)},"matched":${safeJson(r.matched)}`;
}

/**
 * Freezes a result shared by every request it decides, with room for its JSON beside it, rendered
 * once when a writer first asks (a single `policy eval` never does: rendering them all cost its
 * start-up ~1 ms). Every shared result gets the same data property, so that they keep one shape and
 * the engine's reads of them stay fast (a getter per object gave each its own hidden class, and
 * evaluation at 10,000 rules lost a third of its speed).
 */
function shared(r: EvalResult): EvalResult {
  Object.defineProperty(r, DECISION_JSON, { value: { json: undefined }, enumerable: false });
  return Object.freeze(r);
}

/**
 * `"decision":…,"reason":…,"matched":[…]`: the JSON members of a result (no braces), for writers of
 * one JSON object a line. Rendered once for the shared results of the common cases.
 */
export function decisionJson(r: EvalResult): string {
  const holder = (r as Rendered)[DECISION_JSON];
  if (holder === undefined) return renderDecisionJson(r);
  holder.json ??= renderDecisionJson(r);
  return holder.json;
}

export function reasonOf(deny: boolean, deciding: readonly MatchedRule[]): string {
  const first = deciding[0]!;
  const more =
    deciding.length > 1 ? ` and ${deciding.length - 1} more rule${deciding.length > 2 ? 's' : ''}` : '';
  return `${deny ? 'denied' : 'allowed'} by rule "${first.rule}" of policy "${first.policy}"${more}`;
}

/** The batch line tails of the codes: `,<decisionJson>}\n` of every code, as UTF-8, back to back. */
export interface LineTails {
  readonly tails: Uint8Array;
  /** Code c's tail is tails[tailAt[c], tailAt[c + 1]). */
  readonly tailAt: Int32Array;
}

/** The numbered results of a compiled set: code i < entries is entry i alone, the last is no match. */
export interface SharedResults {
  readonly list: readonly EvalResult[];
  /** 1 where the code's decision is deny. */
  readonly denies: Uint8Array;
  /** The line tails, rendered on the first call (by `--batch`), then the same each time. */
  readonly lineTails: () => LineTails;
}

/** The results of each entry deciding alone, then of no match (the default deny). */
export function sharedResults(
  entries: readonly Entry[],
  notEvaluated: NotEvaluated[],
  noMatchReason: string,
): SharedResults {
  const n = entries.length;
  // Strings and arrays first, then the result objects in one run, so that they sit side by side in
  // memory: evaluating against thousands of rules loads one of them per request.
  const reasons = entries.map((e) => reasonOf(e.deny, [e.out]));
  const matched = entries.map((e) => Object.freeze([e.out]) as unknown as MatchedRule[]);
  const list: EvalResult[] = [];
  for (let i = 0; i < n; i++) {
    const decision = entries[i]!.out.decision;
    list.push({ decision, reason: reasons[i]!, matched: matched[i]!, notEvaluated });
  }
  list.push({
    decision: 'deny',
    reason: noMatchReason,
    matched: Object.freeze([]) as unknown as MatchedRule[],
    notEvaluated,
  });
  for (const r of list) shared(r);
  const denies = Uint8Array.from(list, (r) => (r.decision === 'deny' ? 1 : 0));
  let tails: LineTails | undefined;
  const lineTails = () => {
    tails ??= renderLineTails(list);
    return tails;
  };
  return { list, denies, lineTails };
}

function renderLineTails(list: readonly EvalResult[]): LineTails {
  const n = list.length - 1;
  const texts = list.map((r) => `,${decisionJson(r)}}\n`);
  let size = 0;
  for (const t of texts) size += t.length;
  // UTF-8 takes at most 3 bytes per UTF-16 unit
  const tails = new Uint8Array(size * 3);
  const tailAt = new Int32Array(n + 2);
  const utf8 = new TextEncoder();
  let at = 0;
  for (let i = 0; i <= n; i++) {
    tailAt[i] = at;
    at += utf8.encodeInto(texts[i]!, tails.subarray(at)).written;
  }
  tailAt[n + 1] = at;
  return { tails: tails.slice(0, at), tailAt };
}

/** Results of two matching entries, shared like single-entry ones (an allow and a deny overlap). */
const PAIR_CACHE_LIMIT = 100_000;

export function pairResult(
  cache: Map<number, EvalResult>,
  notEvaluated: NotEvaluated[],
  x: Entry,
  y: Entry,
): EvalResult {
  const [a, b] = x.seq < y.seq ? [x, y] : [y, x];
  const key = a.seq * 0x100000000 + b.seq;
  let r = cache.get(key);
  if (r !== undefined) return r;
  const deny = a.deny || b.deny;
  const deciding: MatchedRule[] = [];
  if (a.deny === deny) deciding.push(a.out);
  if (b.deny === deny && !(a.deny === deny && a.ruleKey === b.ruleKey)) deciding.push(b.out);
  r = shared({
    decision: deny ? 'deny' : 'allow',
    reason: reasonOf(deny, deciding),
    matched: Object.freeze(deciding) as MatchedRule[],
    notEvaluated,
  });
  if (cache.size >= PAIR_CACHE_LIMIT) cache.clear();
  cache.set(key, r);
  return r;
}
