// Server answers are parsed at the edge: every JSON answer goes through a schema of what the
// interface documents before any command sees it. Anything else is one sentence, "unexpected
// answer from <host>: <what was wrong>", exit 7 (UnexpectedAnswerError).
//
// valibot, not zod: it loads in ~8 ms against zod's ~90 ms (measured on this 2-core machine), and
// it is bundled into the network chunks, so `policy eval`, `--help` and `config` never load it.
import * as valibot from 'valibot';
import { UnexpectedAnswerError } from '../errors.js';

/**
 * The parts of valibot the schemas use, by name. Re-exported whole (`export { v }` of the
 * namespace), valibot could not be tree-shaken: all of its ~190 KB went into the network chunks,
 * and every registry command loaded and compiled it (issue 27, a copy's fixed cost); named here, the
 * bundle keeps these and what they use. A schema that needs another one adds it here.
 */
export const v = {
  array: valibot.array,
  boolean: valibot.boolean,
  check: valibot.check,
  custom: valibot.custom,
  looseObject: valibot.looseObject,
  maxLength: valibot.maxLength,
  minLength: valibot.minLength,
  minValue: valibot.minValue,
  nullish: valibot.nullish,
  number: valibot.number,
  object: valibot.object,
  optional: valibot.optional,
  picklist: valibot.picklist,
  pipe: valibot.pipe,
  record: valibot.record,
  regex: valibot.regex,
  safeInteger: valibot.safeInteger,
  safeParse: valibot.safeParse,
  string: valibot.string,
  transform: valibot.transform,
  unknown: valibot.unknown,
};

/** valibot's types, under the same `v.` as its functions. */
export declare namespace v {
  export type BaseIssue<T> = valibot.BaseIssue<T>;
  export type GenericSchema<TInput = unknown, TOutput = TInput> = valibot.GenericSchema<TInput, TOutput>;
  export type InferOutput<T extends valibot.GenericSchema> = valibot.InferOutput<T>;
  export type ObjectEntries = valibot.ObjectEntries;
}

/**
 * A JSON object with these fields checked and any others passed through as they came (fields that
 * newer API versions add). Unlike valibot's objects, an array is not taken for one.
 */
export function object<const E extends v.ObjectEntries>(entries: E) {
  return v.pipe(
    v.custom<unknown>((input) => !Array.isArray(input), 'expected Object, got an array'),
    v.looseObject(entries),
  );
}

/** Where an answer came from, for the message. */
export interface AnswerSource {
  /** host[:port] of the server that answered. */
  host: string;
  /** What we were doing ("listing policies of org acme"), prefixed to the message. */
  what?: string;
}

/** Checks a decoded JSON value against a schema; returns the typed value or throws UnexpectedAnswerError. */
export function checkAnswer<S extends v.GenericSchema>(
  schema: S,
  value: unknown,
  source: AnswerSource,
): v.InferOutput<S> {
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  throw new UnexpectedAnswerError(
    `${source.what ? `${source.what}: ` : ''}unexpected answer from ${source.host}: ${describeIssue(result.issues[0])}`,
  );
}

/** Reads a response body as JSON and checks it against a schema. */
export async function readAnswer<S extends v.GenericSchema>(
  res: { url: string; json<T = unknown>(): Promise<T> },
  schema: S,
  what?: string,
): Promise<v.InferOutput<S>> {
  const value = await res.json();
  return checkAnswer(schema, value, { host: hostOf(res.url), what });
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'the server';
  }
}

/** "data[2].name: expected a string, got null" — the path in the document, then what was wrong. */
export function describeIssue(issue: v.BaseIssue<unknown>): string {
  const path = (issue.path ?? [])
    .map((item) => (typeof item.key === 'number' ? `[${item.key}]` : `.${String(item.key)}`))
    .join('')
    .replace(/^\./, '');
  if (issue.input === undefined && path) return `${path}: missing`;
  const got = describeValue(issue.input);
  // A check (non-empty, one of two fields) says in its own words what was wrong.
  const expected =
    issue.kind === 'schema' && issue.type !== 'custom' && issue.expected
      ? `expected ${issue.expected}, got ${got}`
      : issue.message;
  return path ? `${path}: ${expected}` : expected;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** What an id from a server may be before it goes into a URL path (src/api/schemas.ts). */
export const ID_TEXT = /^(?!\.\.?$)[A-Za-z0-9._~:-]{1,256}$/;

/**
 * An id as one URL path segment, percent-encoded. Ids from servers were checked against ID_TEXT
 * and ids from the command line by their own grammar; this is the last guard: `.` and `..` would
 * move the request to another path, so they never reach a URL.
 */
export function pathSegment(id: string): string {
  if (id === '' || id === '.' || id === '..') {
    throw new UnexpectedAnswerError(`the id "${id}" cannot go into a URL path`);
  }
  return encodeURIComponent(id);
}
