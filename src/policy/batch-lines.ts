// `policy eval --batch`, line by line: a request line (`{"action":…,"destination":…}` or
// `action destination`) parsed, decided and written as one JSON line; a malformed line becomes an
// error record. The text path of BatchProcessor (batch-bytes.ts), and the path of any line its byte
// scanner does not take. Pure: the command does the reading and writing.

import { HubctlError, ValidationError } from '../errors.js';
import { safeJson } from '../json-text.js';
import { Ascii } from './ascii.js';
import {
  decisionJson,
  type EvalResult,
  type EvaluateOptions,
  Evaluator,
  evaluate,
  type PolicyIndex,
} from './engine.js';

export interface BatchRequest {
  action: string;
  destination: string;
}

/** A decided MCP line, from the command's Cedar evaluator. */
export interface McpLineResult {
  text: string;
  denied: boolean;
}

export interface BatchOptions extends EvaluateOptions {
  /**
   * Decides a line whose action is `mcp:*` (the whole line, and its action and destination): the
   * command's Cedar evaluator. Throws HubctlError for a line it cannot decide. Without it, such a
   * line is an unknown action.
   */
  mcp?: (line: string, req: BatchRequest) => McpLineResult;
}

export const HEAD = '{"action":"';
export const MIDDLE = '","destination":"';

/**
 * The compact form `{"action":"…","destination":"…"}` (what JSON.stringify and `jq -c` write),
 * read without building a parse tree; null when the line is anything else (escapes included),
 * which then goes through JSON.parse.
 */
function parseCompact(s: string): BatchRequest | null {
  if (!s.startsWith(HEAD)) return null;
  const a0 = HEAD.length;
  const a1 = s.indexOf('"', a0);
  if (a1 < 0 || !s.startsWith(MIDDLE, a1)) return null;
  const d0 = a1 + MIDDLE.length;
  const d1 = s.indexOf('"', d0);
  if (d1 !== s.length - 2 || s.charCodeAt(s.length - 1) !== Ascii.RightBrace) return null;
  for (let i = a0; i < d1; i++) {
    const c = s.charCodeAt(i);
    if (c === Ascii.Backslash || c < Ascii.Space) return null;
  }
  return { action: s.slice(a0, a1), destination: s.slice(d0, d1) };
}

/** A request line → request; null for a blank line or a `#` comment. Throws ValidationError. */
export function parseRequestLine(line: string): BatchRequest | null {
  let s = line;
  if (s.length > 0 && (s.charCodeAt(s.length - 1) === Ascii.CarriageReturn || s.charCodeAt(0) <= Ascii.Space))
    s = s.trim();
  if (s === '' || s.charCodeAt(0) === Ascii.Hash) return null;
  if (s.charCodeAt(0) === Ascii.LeftBrace) {
    const fast = parseCompact(s);
    if (fast !== null) return fast;
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

/**
 * JSON string text, safe on a terminal; plain ASCII strings (no quote, backslash, control or DEL)
 * without the general writer.
 */
function quote(v: string): string {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c === Ascii.Quote || c === Ascii.Backslash || c < Ascii.Space || c >= Ascii.Delete)
      return safeJson(v);
  }
  return `"${v}"`;
}

function actionHead(action: string): string {
  switch (action) {
    case 'connect:tcp':
      return '{"action":"connect:tcp","destination":';
    case 'connect:udp':
      return '{"action":"connect:udp","destination":';
    case 'read':
      return '{"action":"read","destination":';
    case 'write':
      return '{"action":"write","destination":';
    default:
      return `{"action":${quote(action)},"destination":`;
  }
}

/** The output line (no newline) of a decided request. */
export function formatDecisionLine(req: BatchRequest, r: EvalResult): string {
  return `${actionHead(req.action)}${quote(req.destination)},${decisionJson(r)}}`;
}

export function formatErrorLine(lineNo: number, input: string, err: unknown): string {
  const code = err instanceof HubctlError ? err.code : 'ERROR';
  const message = err instanceof Error ? err.message : String(err);
  return safeJson({ line: lineNo, input, error: { code, message } });
}

export interface BatchLineResult {
  text: string;
  denied: boolean;
  error: boolean;
}

/** Evaluates one input line; null for blank and comment lines. Never throws for bad input. */
export function evaluateLine(
  set: PolicyIndex | Evaluator,
  line: string,
  lineNo: number,
  opts?: BatchOptions,
): BatchLineResult | null {
  let req: BatchRequest | null;
  try {
    req = parseRequestLine(line);
    if (req === null) return null;
    if (opts?.mcp !== undefined && req.action.startsWith('mcp:')) {
      const m = opts.mcp(line, req);
      return { text: m.text, denied: m.denied, error: false };
    }
    const r = evaluate(set, req.action, req.destination, opts);
    return { text: formatDecisionLine(req, r), denied: r.decision === 'deny', error: false };
  } catch (err) {
    if (!(err instanceof HubctlError)) throw err;
    const input = line.endsWith('\r') ? line.slice(0, -1) : line;
    return { text: formatErrorLine(lineNo, input, err), denied: false, error: true };
  }
}

/**
 * The longest request line read: a request is an action and a destination (a URL at most a few
 * KiB). A longer line is refused (exit 2) before it is gathered whole, so memory stays bounded.
 */
export const MAX_LINE_BYTES = 1024 * 1024;

/** The refusal of a line over MAX_LINE_BYTES, `lineNo` counting from 1. */
export function lineTooLong(lineNo: number): ValidationError {
  return new ValidationError(
    `line ${lineNo} of the batch is longer than ${MAX_LINE_BYTES / (1024 * 1024)} MiB; a request is one short line`,
  );
}

export interface BatchCounts {
  total: number;
  denied: number;
  errors: number;
}

/** Streams a batch of text: the counts and line numbers shared with the byte path. */
export class TextBatch {
  readonly counts: BatchCounts = { total: 0, denied: 0, errors: 0 };
  private rest = '';
  protected lineNo = 0;

  /** The batch's own evaluator: a batch never shares scratch space with another caller. */
  protected readonly ev: Evaluator;
  protected readonly set: PolicyIndex;

  constructor(
    target: PolicyIndex | Evaluator,
    protected readonly opts?: BatchOptions,
  ) {
    this.ev = target instanceof Evaluator ? target : new Evaluator(target);
    this.set = this.ev.index;
  }

  /** Feed text as it arrives (any chunking); get back the output of the complete lines. */
  push(text: string): string {
    const all = this.rest === '' ? text : this.rest + text;
    const lastNl = all.lastIndexOf('\n');
    if (lastNl < 0) {
      // UTF-16 units: a line over the cap in bytes may pass here by up to 3×, never more.
      if (all.length > MAX_LINE_BYTES) throw lineTooLong(this.lineNo + 1);
      this.rest = all;
      return '';
    }
    if (all.length - lastNl - 1 > MAX_LINE_BYTES) throw lineTooLong(this.lineNo + 1);
    this.rest = all.slice(lastNl + 1);
    return this.lines(all, lastNl);
  }

  end(): string {
    const rest = this.rest;
    this.rest = '';
    return rest === '' ? '' : this.lines(rest, rest.length);
  }

  private lines(text: string, end: number): string {
    const out: string[] = [];
    let start = 0;
    while (start <= end && start < text.length) {
      let nl = text.indexOf('\n', start);
      if (nl < 0 || nl > end) nl = end;
      if (nl - start > MAX_LINE_BYTES) throw lineTooLong(this.lineNo + 1);
      const r = evaluateLine(this.ev, text.slice(start, nl), ++this.lineNo, this.opts);
      start = nl + 1;
      if (r === null) continue;
      this.counts.total++;
      if (r.error) this.counts.errors++;
      else if (r.denied) this.counts.denied++;
      out.push(r.text);
    }
    return out.length === 0 ? '' : `${out.join('\n')}\n`;
  }
}
