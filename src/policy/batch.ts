// `policy eval --batch`: one request a line in (`{"action":…,"destination":…}` or
// `action destination`), one JSON decision a line out. A malformed line becomes an error record and
// the batch goes on. Pure: the command does the reading and writing.
import { HubctlError, ValidationError } from '../errors.js';
import { type CompiledPolicySet, type EvalResult, type EvaluateOptions, evaluate } from './engine.js';

export interface BatchRequest {
  action: string;
  destination: string;
}

/** A request line → request; null for a blank line or a `#` comment. Throws ValidationError. */
export function parseRequestLine(line: string): BatchRequest | null {
  let s = line;
  if (s.length > 0 && (s.charCodeAt(s.length - 1) === 13 || s.charCodeAt(0) <= 32)) s = s.trim();
  if (s === '' || s.charCodeAt(0) === 35) return null;
  if (s.charCodeAt(0) === 123) {
    let v: unknown;
    try {
      v = JSON.parse(s);
    } catch (err) {
      throw new ValidationError(`not valid JSON: ${(err as Error).message}`);
    }
    const o = v as { action?: unknown; destination?: unknown };
    if (typeof o.action !== 'string' || typeof o.destination !== 'string') {
      throw new ValidationError('a JSON request needs string fields "action" and "destination"');
    }
    return { action: o.action, destination: o.destination };
  }
  const sp = s.search(/\s/);
  if (sp < 0) throw new ValidationError('a request is `action destination` or {"action":…,"destination":…}');
  const action = s.slice(0, sp);
  const destination = s.slice(sp + 1).trim();
  if (/\s/.test(destination)) throw new ValidationError('a request is `action destination`: too many words');
  return { action, destination };
}

const tails = new WeakMap<EvalResult, string>();

function tailOf(r: EvalResult): string {
  let t = tails.get(r);
  if (t !== undefined) return t;
  t = `,"decision":"${r.decision}","reason":${JSON.stringify(r.reason)},"matched":${JSON.stringify(r.matched)}}`;
  if (Object.isFrozen(r)) tails.set(r, t);
  return t;
}

/** The output line (no newline) of a decided request. Frozen results' tails are cached. */
export function formatDecisionLine(req: BatchRequest, r: EvalResult): string {
  return `{"action":${JSON.stringify(req.action)},"destination":${JSON.stringify(req.destination)}${tailOf(r)}`;
}

export function formatErrorLine(lineNo: number, input: string, err: unknown): string {
  const code = err instanceof HubctlError ? err.code : 'ERROR';
  const message = err instanceof Error ? err.message : String(err);
  return JSON.stringify({ line: lineNo, input, error: { code, message } });
}

export interface BatchLineResult {
  text: string;
  denied: boolean;
  error: boolean;
}

/** Evaluates one input line; null for blank and comment lines. Never throws for bad input. */
export function evaluateLine(
  set: CompiledPolicySet,
  line: string,
  lineNo: number,
  opts?: EvaluateOptions,
): BatchLineResult | null {
  let req: BatchRequest | null;
  try {
    req = parseRequestLine(line);
    if (req === null) return null;
    const r = evaluate(set, req.action, req.destination, opts);
    return { text: formatDecisionLine(req, r), denied: r.decision === 'deny', error: false };
  } catch (err) {
    if (!(err instanceof HubctlError)) throw err;
    return { text: formatErrorLine(lineNo, line, err), denied: false, error: true };
  }
}
