// `policy test` case files (YAML or JSON), read strictly: `cases:` and nothing else at the top, each
// case {name?, request, expect, team?, attrs?, args?, server?}; an unknown or repeated key is an
// error naming the file, the line and the nearest known key. JSON goes through a located reader
// (located-json.ts); YAML in the plain subset through the quick reader policy files use, anything
// else (and every error's line) through the `yaml` library's document API, loaded only then.
// Pure: no IO.

import { ValidationError } from '../errors.js';
import { editDistance } from './authoring-keys.js';
import { MCP_ACTIONS } from './cedar/mcp-schema.js';
import { type Lines, LocatedJsonError, readLocatedJson } from './located-json.js';
import { domainOfAction, KNOWN_ACTIONS } from './model.js';
import { DECLINED, readYamlSubset } from './yaml-subset.js';

/** What a case expects; `approval-required` is an MCP outcome only. */
export type Outcome = 'allow' | 'deny' | 'undecided' | 'approval-required';
export const OUTCOMES: readonly Outcome[] = ['allow', 'deny', 'undecided', 'approval-required'];

/** The MCP actions (audit-and-mcp.md §3), as `policy eval` spells them: `mcp:` and the schema's. */
const MCP_CASE_ACTIONS: readonly string[] = MCP_ACTIONS.map((a) => `mcp:${a}`);

export type AttrValue = string | boolean | string[];

export interface McpFields {
  /** Resource attributes: booleans, strings, and `args` (a list of strings) for a server. */
  attrs?: Record<string, AttrValue>;
  /** `context.args` of a tool call: an object. */
  args?: Record<string, unknown>;
  /** The server of a resource read or a prompt. */
  server?: string;
}

export interface TestCase {
  /** The name given, or the request's text. */
  name: string;
  named: boolean;
  file: string;
  /** 1-based line of the case in its file, when known. */
  line?: number;
  action: string;
  destination: string;
  /** `action destination`, as `policy eval` takes it. */
  request: string;
  expect: Outcome;
  /** A team UUID (lower case) or a team's name. */
  team?: string;
  /** Set for an MCP request (an `mcp:` action). */
  mcp?: McpFields;
}

/** Case files larger than this are refused (100,000 cases take ~8 MiB). */
export const MAX_CASE_FILE_BYTES = 64 * 1024 * 1024;
export const MAX_CASES = 1_000_000;
const MAX_TEXT = 8192;

const TOP_KEYS = ['cases'];
const CASE_KEYS = ['name', 'request', 'expect', 'team', 'attrs', 'args', 'server'];
const REQUEST_KEYS = ['action', 'destination'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Path = (string | number)[];
type Locate = (path: Path) => Promise<number | undefined>;

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** ` (did you mean "x"?)` for the known word nearest `word`, or nothing when none is near. */
export function didYouMean(word: string, known: readonly string[]): string {
  if (word.length > 64) return '';
  let best = '';
  let bestD = Number.POSITIVE_INFINITY;
  for (const k of known) {
    const d = editDistance(word.toLowerCase(), k.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  return bestD <= Math.max(1, Math.floor(best.length / 3)) ? `; did you mean "${best}"?` : '';
}

function shown(v: unknown): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

class CaseReader {
  constructor(
    readonly file: string,
    readonly locate: Locate,
    readonly caseLine: (i: number) => number | undefined,
  ) {}

  async fail(path: Path, what: string, message: string): Promise<never> {
    const line = await this.locate(path);
    const where = line === undefined ? this.file : `${this.file}:${line}`;
    throw new ValidationError(`${where}: ${what}${what ? ': ' : ''}${message}`);
  }

  async keys(v: Record<string, unknown>, known: readonly string[], path: Path, what: string): Promise<void> {
    for (const k of Object.keys(v)) {
      if (!known.includes(k)) {
        await this.fail(
          [...path, k],
          what,
          `unknown key "${k}"${didYouMean(k, known)} (known: ${known.join(', ')})`,
        );
      }
    }
  }

  async text(v: unknown, path: Path, what: string, field: string): Promise<string> {
    if (typeof v !== 'string' || v === '')
      await this.fail(path, what, `"${field}" must be a non-empty string`);
    if ((v as string).length > MAX_TEXT)
      await this.fail(path, what, `"${field}" is longer than ${MAX_TEXT} characters`);
    return v as string;
  }

  async request(v: unknown, path: Path, what: string): Promise<{ action: string; destination: string }> {
    if (v === undefined) await this.fail(path.slice(0, -1), what, 'a case needs a "request"');
    if (typeof v === 'string') {
      const t = v.trim();
      const sp = t.search(/\s/);
      if (sp < 0)
        await this.fail(
          path,
          what,
          `request ${shown(v)} must be "action destination", e.g. "connect:tcp api.github.com:443"`,
        );
      return { action: t.slice(0, sp), destination: t.slice(sp).trim() };
    }
    if (!isObj(v))
      return this.fail(path, what, 'a request is a string "action destination" or {action, destination}');
    await this.keys(v, REQUEST_KEYS, path, what);
    const action = await this.text(v.action, [...path, 'action'], what, 'action');
    const destination = await this.text(v.destination, [...path, 'destination'], what, 'destination');
    return { action, destination };
  }

  async attrs(v: unknown, path: Path, what: string): Promise<Record<string, AttrValue>> {
    if (!isObj(v)) return this.fail(path, what, '"attrs" must be a mapping of attribute names to values');
    for (const [k, a] of Object.entries(v)) {
      const ok =
        typeof a === 'string' ||
        typeof a === 'boolean' ||
        (Array.isArray(a) && a.every((x) => typeof x === 'string'));
      if (!ok)
        await this.fail(
          [...path, k],
          what,
          `attribute "${k}" must be a string, a boolean or a list of strings, not ${shown(a)}`,
        );
    }
    return v as Record<string, AttrValue>;
  }

  async testCase(v: unknown, i: number): Promise<TestCase> {
    const path: Path = ['cases', i];
    if (!isObj(v))
      return this.fail(path, `case ${i + 1}`, 'a case must be a mapping {name?, request, expect}');
    const named = typeof v.name === 'string' && v.name !== '';
    const what = named ? `case ${i + 1} (${shown(v.name)})` : `case ${i + 1}`;
    await this.keys(v, CASE_KEYS, path, what);
    if (v.name !== undefined) await this.text(v.name, [...path, 'name'], what, 'name');
    const { action, destination } = await this.request(v.request, [...path, 'request'], what);
    const mcp = action.startsWith('mcp:');
    if (mcp ? !MCP_CASE_ACTIONS.includes(action) : domainOfAction(action) === undefined) {
      const known = [...KNOWN_ACTIONS.network, ...KNOWN_ACTIONS.filesystem, ...MCP_CASE_ACTIONS];
      await this.fail([...path, 'request'], what, `unknown action "${action}"${didYouMean(action, known)}`);
    }
    if (v.expect === undefined)
      await this.fail(path, what, 'a case needs "expect" (allow, deny or undecided)');
    const expect = v.expect as Outcome;
    if (typeof v.expect !== 'string' || !OUTCOMES.includes(expect)) {
      await this.fail(
        [...path, 'expect'],
        what,
        `expect ${shown(v.expect)} is not one of ${OUTCOMES.join(', ')}${typeof v.expect === 'string' ? didYouMean(v.expect, OUTCOMES) : ''}`,
      );
    }
    if (expect === 'approval-required' && !mcp)
      await this.fail(
        [...path, 'expect'],
        what,
        'approval-required is an outcome of MCP requests (mcp:… actions) only',
      );
    const out: TestCase = {
      name: named ? (v.name as string) : `${action} ${destination}`,
      named,
      file: this.file,
      action,
      destination,
      request: `${action} ${destination}`,
      expect,
    };
    const line = this.caseLine(i);
    if (line !== undefined) out.line = line;
    if (v.team !== undefined) {
      const team = await this.text(v.team, [...path, 'team'], what, 'team');
      if (team.length > 200 || /[\u0000-\u001f\u007f]/.test(team))
        await this.fail([...path, 'team'], what, `team ${shown(team)} is neither a team name nor a UUID`);
      // a UUID as the API holds it, or a team's name (resolved against the organization)
      out.team = UUID.test(team) ? team.toLowerCase() : team;
    }
    for (const field of ['attrs', 'args', 'server'] as const) {
      if (v[field] !== undefined && !mcp)
        await this.fail([...path, field], what, `"${field}" applies to MCP requests (mcp:… actions) only`);
    }
    if (mcp) {
      const fields: McpFields = {};
      if (v.attrs !== undefined) fields.attrs = await this.attrs(v.attrs, [...path, 'attrs'], what);
      if (v.args !== undefined) {
        if (!isObj(v.args))
          await this.fail([...path, 'args'], what, '"args" must be a mapping (the tool call\'s arguments)');
        fields.args = v.args as Record<string, unknown>;
      }
      if (v.server !== undefined)
        fields.server = await this.text(v.server, [...path, 'server'], what, 'server');
      if ((action === 'mcp:readResource' || action === 'mcp:getPrompt') && fields.server === undefined)
        await this.fail(
          path,
          what,
          `${action} needs "server": the server the ${action === 'mcp:getPrompt' ? 'prompt' : 'resource'} belongs to`,
        );
      out.mcp = fields;
    }
    return out;
  }

  async read(value: unknown): Promise<TestCase[]> {
    if (!isObj(value)) return this.fail([], '', 'a case file is a mapping with "cases:", a list of cases');
    await this.keys(value, TOP_KEYS, [], '');
    const list = value.cases;
    if (!Array.isArray(list)) return this.fail(['cases'], '', '"cases" must be a list of cases');
    if (list.length === 0) return this.fail(['cases'], '', 'holds no case');
    if (list.length > MAX_CASES) return this.fail(['cases'], '', `holds more than ${MAX_CASES} cases`);
    const out: TestCase[] = [];
    for (let i = 0; i < list.length; i++) out.push(await this.testCase(list[i], i));
    return out;
  }
}

function jsonLocator(lines: Lines, root: unknown): Locate {
  return async (path) => {
    let node = root;
    let line: number | undefined;
    for (const step of path) {
      if (typeof node !== 'object' || node === null) break;
      const at = lines.get(node);
      line = at?.get(step) ?? line;
      node = (node as Record<string | number, unknown>)[step];
    }
    return line;
  };
}

type YamlDoc = import('yaml').Document.Parsed;

async function parseYaml(
  text: string,
  file: string,
): Promise<{ doc: YamlDoc; lineOf: (pos: number) => number }> {
  const YAML = await import('yaml');
  const counter = new YAML.LineCounter();
  const docs = YAML.parseAllDocuments(text, { lineCounter: counter, uniqueKeys: true, prettyErrors: false });
  const list = Array.isArray(docs) ? docs : [docs];
  for (const d of list) {
    const e = d.errors[0];
    if (e) {
      const line = counter.linePos(e.pos[0]).line;
      const message = e.message.split('\n')[0]!.replace(/:$/, '');
      throw new ValidationError(
        `${file}:${line}: not valid YAML: ${/unique/i.test(message) ? 'a key is written twice in one mapping' : message}`,
      );
    }
  }
  if (list.length > 1) {
    const line = counter.linePos(list[1]!.range[0]).line;
    throw new ValidationError(`${file}:${line}: a case file holds one YAML document`);
  }
  if (list.length === 0) throw new ValidationError(`${file}: holds no case`);
  return { doc: list[0] as YamlDoc, lineOf: (pos) => counter.linePos(pos).line };
}

function yamlLocator(
  text: string,
  file: string,
  parsed?: { doc: YamlDoc; lineOf: (pos: number) => number },
): Locate {
  let memo = parsed;
  return async (path) => {
    memo ??= await parseYaml(text, file);
    const YAML = await import('yaml');
    let node: unknown = memo.doc.contents;
    let pos: number | undefined;
    for (const step of path) {
      if (YAML.isMap(node)) {
        const pair = node.items.find((p) => YAML.isScalar(p.key) && p.key.value === step);
        if (!pair) break;
        pos = (pair.key as { range?: [number, number, number] }).range?.[0] ?? pos;
        node = pair.value;
      } else if (YAML.isSeq(node) && typeof step === 'number') {
        node = node.items[step];
        pos = (node as { range?: [number, number, number] } | undefined)?.range?.[0] ?? pos;
      } else break;
    }
    return pos === undefined ? undefined : memo.lineOf(pos);
  };
}

const MAX_YAML_ALIASES = 100;

/** Reads a case file's text (`file` names it in errors). Throws ValidationError with file and line. */
export async function parseCaseFile(raw: string, file: string): Promise<TestCase[]> {
  if (raw.length > MAX_CASE_FILE_BYTES)
    throw new ValidationError(`${file}: is larger than ${MAX_CASE_FILE_BYTES / 1024 / 1024} MiB`);
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  const trimmed = text.trimStart();
  if (/\.json$/i.test(file) || trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let got: { value: unknown; lines: Lines };
    try {
      got = readLocatedJson(text);
    } catch (err) {
      if (!(err instanceof LocatedJsonError)) throw err;
      throw new ValidationError(`${file}:${err.line}: not valid JSON: ${err.message}`);
    }
    const v = got.value;
    const list = isObj(v) && Array.isArray(v.cases) ? v.cases : [];
    const at = got.lines.get(list);
    return new CaseReader(file, jsonLocator(got.lines, v), (i) => at?.get(i)).read(v);
  }
  const quick = readYamlSubset(text);
  if (quick !== DECLINED) {
    const starts = subsetCaseLines(text);
    return new CaseReader(file, yamlLocator(text, file), (i) => starts[i]).read(quick);
  }
  const parsed = await parseYaml(text, file);
  let value: unknown;
  try {
    value = parsed.doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (err) {
    throw new ValidationError(`${file}: not valid YAML: ${String((err as Error).message).split('\n')[0]}`);
  }
  const contents = parsed.doc.contents;
  const YAML = await import('yaml');
  const seq = YAML.isMap(contents) ? contents.get('cases', true) : undefined;
  const items = YAML.isSeq(seq) ? seq.items : [];
  const caseLine = (i: number) => {
    const r = (items[i] as { range?: [number, number, number] } | undefined)?.range;
    return r ? parsed.lineOf(r[0]) : undefined;
  };
  return new CaseReader(file, yamlLocator(text, file, parsed), caseLine).read(value);
}

/**
 * The lines where the cases of a document in the plain subset start: its block sequence entries at
 * the indentation of the first one after `cases:` (the subset has no multi-line scalars, so every
 * line there starting with "-" is an entry).
 */
function subsetCaseLines(text: string): number[] {
  const lines = text.split('\n');
  const out: number[] = [];
  let indent = -1;
  let inCases = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const t = l.trimStart();
    if (t === '' || t.startsWith('#')) continue;
    const ind = l.length - t.length;
    if (ind === 0 && !t.startsWith('-')) {
      inCases = /^cases:\s*(#.*)?$/.test(t.trimEnd());
      continue;
    }
    if (!inCases) continue;
    if (indent < 0 && t.startsWith('-')) indent = ind;
    if (ind === indent && (t === '-' || t.startsWith('- ') || t.startsWith('-#'))) out.push(i + 1);
  }
  return out;
}
