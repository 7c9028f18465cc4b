// The types the engine's modules share (results, matched rules, compiled entries), at the bottom of
// its imports: they import only the patterns' types, so that no two modules need each other for a
// type. Pure: no IO.
import type { HttpPattern } from './http.js';
import type { Decision } from './model.js';
import type { NetworkPattern } from './network.js';
import type { FilesystemPattern } from './path.js';

export interface MatchedRule {
  policy: string;
  rule: string;
  resource: string;
  decision: Decision;
  /** With `explain`: which resource form matched which part of the destination. */
  why?: string;
}

export interface NotEvaluated {
  policy: string;
  rule?: string;
  reason: string;
}

export interface EvalResult {
  decision: Decision;
  reason: string;
  /** The deciding rules (one line per rule); with `explain`, every matching resource of every rule. */
  matched: MatchedRule[];
  /** Policies and rules hubctl could not evaluate; they never match. */
  notEvaluated: NotEvaluated[];
}

export interface EvaluateOptions {
  explain?: boolean;
}

/** One resource of one rule, as compiled. `seq` is its id: its position in the compiled set. */
export interface Entry {
  readonly seq: number;
  readonly ruleKey: number;
  readonly deny: boolean;
  readonly out: MatchedRule;
  readonly net: NetworkPattern | null;
  readonly fs: FilesystemPattern | null;
  /** An HTTP rule's resource (`net` and `fs` are then null). */
  readonly http: HttpPattern | null;
}
