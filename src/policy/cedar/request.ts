// An MCP request as `policy eval` takes it (action, destination, attributes, arguments, server), read
// and checked at the edge, and turned into the entities and context of a Cedar request. Pure: no IO.
import { ValidationError } from '../../errors.js';
import { MCP_ACTIONS, type McpAction, SERVER_TYPES, TOOL_DEFAULTS } from './mcp-schema.js';
import type { EntityJson } from './wasm.js';

export interface McpRequest {
  action: McpAction;
  /** `SERVER/TOOL`, a server name (register), a primordial's name, a URI or a prompt name. */
  destination: string;
  /** The server of a resource or prompt. */
  server?: string;
  /** Resource attributes, typed (booleans, strings, `args` a list of strings). */
  attrs?: Record<string, boolean | string | string[]>;
  /** `context.args`: a tool call's arguments (an object). */
  args?: Record<string, unknown>;
}

type AttrType = 'bool' | 'string' | 'strings' | 'serverType';

/** The attributes `--attr` may set, per action: those of the request's resource. */
export const SETTABLE_ATTRS: Readonly<Record<McpAction, Readonly<Record<string, AttrType>>>> = {
  register: {
    type: 'serverType',
    identityURL: 'string',
    requiresOAuth: 'bool',
    requiresNetwork: 'bool',
    command: 'string',
    args: 'strings',
  },
  invokeTool: { readOnly: 'bool', destructive: 'bool', idempotent: 'bool', openWorld: 'bool' },
  invokePrimordial: {},
  readResource: {},
  getPrompt: {},
};

const MAX_NAME = 4096;
const MAX_ARGS_JSON = 64 * 1024;
const MAX_DEPTH = 32;
const MAX_SET = 1000;

/** `mcp:invokeTool` → `invokeTool`; undefined for another action. */
export function mcpActionOf(action: string): McpAction | undefined {
  if (!action.startsWith('mcp:')) return undefined;
  const a = action.slice(4);
  return (MCP_ACTIONS as readonly string[]).includes(a) ? (a as McpAction) : undefined;
}

export function isMcpAction(action: string): boolean {
  return action.startsWith('mcp:');
}

/** `mcp:<action>` → the action; throws ValidationError naming the known ones. */
export function parseMcpAction(action: string): McpAction {
  const a = mcpActionOf(action);
  if (a === undefined) {
    throw new ValidationError(
      `unknown MCP action "${action}"; the gated actions are ${MCP_ACTIONS.map((x) => `mcp:${x}`).join(', ')}`,
    );
  }
  return a;
}

function checkName(what: string, v: string): string {
  if (v === '') throw new ValidationError(`${what} is empty`);
  if (v.length > MAX_NAME) throw new ValidationError(`${what} is longer than ${MAX_NAME} characters`);
  if (/[\u0000-\u001f\u007f]/.test(v)) throw new ValidationError(`${what} holds a control character`);
  return v;
}

/** A typed attribute value from its text (`--attr key=value`). */
function attrFromText(action: McpAction, key: string, text: string): boolean | string | string[] {
  const type = attrType(action, key);
  if (type === 'bool') {
    if (text === 'true') return true;
    if (text === 'false') return false;
    throw new ValidationError(`--attr ${key} takes true or false, not "${text}"`);
  }
  if (type === 'strings') {
    let v: unknown;
    try {
      v = JSON.parse(text);
    } catch {
      throw new ValidationError(
        `--attr ${key} takes a JSON array of strings, like ${key}='["--port","8080"]'`,
      );
    }
    return checkAttr(action, key, v) as string[];
  }
  return checkAttr(action, key, text) as string;
}

function attrType(action: McpAction, key: string): AttrType {
  const known = SETTABLE_ATTRS[action];
  const type = Object.hasOwn(known, key) ? known[key] : undefined;
  if (type === undefined) {
    const names = Object.keys(known);
    throw new ValidationError(
      names.length === 0
        ? `mcp:${action} takes no attributes (its resource has none to set), not "${key}"`
        : `"${key}" is not an attribute of the resource of mcp:${action}; it has ${names.join(', ')}`,
    );
  }
  return type;
}

/** A typed attribute value (a batch line's `attrs`), checked against its documented type. */
function checkAttr(action: McpAction, key: string, v: unknown): boolean | string | string[] {
  const type = attrType(action, key);
  if (type === 'bool') {
    if (typeof v !== 'boolean') throw new ValidationError(`attribute ${key} is true or false`);
    return v;
  }
  if (type === 'strings') {
    if (!Array.isArray(v) || v.some((x) => typeof x !== 'string'))
      throw new ValidationError(`attribute ${key} is a list of strings`);
    if (v.length > MAX_SET) throw new ValidationError(`attribute ${key} holds more than ${MAX_SET} strings`);
    return v as string[];
  }
  if (typeof v !== 'string') throw new ValidationError(`attribute ${key} is a string`);
  if (v.length > MAX_NAME)
    throw new ValidationError(`attribute ${key} is longer than ${MAX_NAME} characters`);
  if (type === 'serverType' && !(SERVER_TYPES as readonly string[]).includes(v)) {
    throw new ValidationError(`attribute type is one of ${SERVER_TYPES.join(', ')}, not "${v}"`);
  }
  return v;
}

/** `--attr key=value` options → typed attributes. */
export function attrsFromText(
  action: McpAction,
  pairs: readonly string[],
): Record<string, boolean | string | string[]> {
  const out: Record<string, boolean | string | string[]> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new ValidationError(`--attr takes key=value, not "${pair}"`);
    const key = pair.slice(0, eq);
    if (Object.hasOwn(out, key)) throw new ValidationError(`--attr ${key} is given twice`);
    out[key] = attrFromText(action, key, pair.slice(eq + 1));
  }
  return out;
}

/** `--args JSON` → the arguments object. */
export function argsFromText(text: string): Record<string, unknown> {
  if (text.length > MAX_ARGS_JSON)
    throw new ValidationError(`--args is longer than ${MAX_ARGS_JSON / 1024} KiB`);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new ValidationError(`--args is not valid JSON: ${(err as Error).message}`);
  }
  return checkArgs(v);
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Arguments as Cedar can hold them exactly: records, sets, strings, booleans and 64-bit integers. */
function checkArgs(v: unknown): Record<string, unknown> {
  if (!isObj(v)) {
    throw new ValidationError(
      'the arguments are a JSON object (the service passes them to policies only then)',
    );
  }
  const walk = (x: unknown, path: string, depth: number): void => {
    if (depth > MAX_DEPTH) throw new ValidationError(`the arguments nest deeper than ${MAX_DEPTH} levels`);
    if (typeof x === 'string' || typeof x === 'boolean') return;
    if (typeof x === 'number') {
      if (!Number.isSafeInteger(x)) {
        throw new ValidationError(
          `argument ${path} is ${x}: Cedar holds integers only, so hubctl cannot say how the service reads it`,
        );
      }
      return;
    }
    if (x === null) throw new ValidationError(`argument ${path} is null, which Cedar cannot hold`);
    if (Array.isArray(x)) {
      if (x.length > MAX_SET) throw new ValidationError(`argument ${path} holds more than ${MAX_SET} items`);
      for (let i = 0; i < x.length; i++) walk(x[i], `${path}[${i}]`, depth + 1);
      return;
    }
    if (isObj(x)) {
      for (const [k, e] of Object.entries(x)) {
        // Cedar's JSON reads these keys as an entity or an extension value, not as a field
        if (k === '__entity' || k === '__extn') {
          throw new ValidationError(
            `argument ${path}.${k}: a field of that name cannot be passed to Cedar as it is`,
          );
        }
        walk(e, `${path}.${k}`, depth + 1);
      }
    }
  };
  for (const [k, e] of Object.entries(v)) {
    if (k === '__entity' || k === '__extn') {
      throw new ValidationError(`argument ${k}: a field of that name cannot be passed to Cedar as it is`);
    }
    walk(e, k, 1);
  }
  return v;
}

/** A request from its parts as the command line gives them. Throws ValidationError. */
export function mcpRequest(
  action: string,
  destination: string,
  opts: { attrs?: readonly string[]; args?: string; server?: string } = {},
): McpRequest {
  const a = parseMcpAction(action);
  const req: McpRequest = { action: a, destination };
  if (opts.server !== undefined) req.server = opts.server;
  if (opts.attrs && opts.attrs.length > 0) req.attrs = attrsFromText(a, opts.attrs);
  if (opts.args !== undefined) req.args = argsFromText(opts.args);
  return checkRequest(req);
}

/** A request from a batch line's JSON `{action, destination, attrs?, args?, server?}`. */
export function mcpRequestFromJson(v: Record<string, unknown>): McpRequest {
  if (typeof v.action !== 'string' || typeof v.destination !== 'string') {
    throw new ValidationError('a JSON request needs string fields "action" and "destination"');
  }
  const a = parseMcpAction(v.action);
  const req: McpRequest = { action: a, destination: v.destination };
  for (const k of Object.keys(v)) {
    if (!['action', 'destination', 'attrs', 'args', 'server'].includes(k)) {
      throw new ValidationError(
        `unknown field "${k}"; an MCP request has action, destination, attrs, args, server`,
      );
    }
  }
  if (v.server !== undefined) {
    if (typeof v.server !== 'string') throw new ValidationError('"server" is a string');
    req.server = v.server;
  }
  if (v.attrs !== undefined) {
    if (!isObj(v.attrs)) throw new ValidationError('"attrs" is an object of attribute values');
    const attrs: Record<string, boolean | string | string[]> = {};
    for (const [k, x] of Object.entries(v.attrs)) attrs[k] = checkAttr(a, k, x);
    req.attrs = attrs;
  }
  if (v.args !== undefined) {
    if (JSON.stringify(v.args).length > MAX_ARGS_JSON) {
      throw new ValidationError(`"args" is longer than ${MAX_ARGS_JSON / 1024} KiB`);
    }
    req.args = checkArgs(v.args);
  }
  return checkRequest(req);
}

/** The combinations: the destination's form per action, --server where it belongs, args on tool calls. */
function checkRequest(req: McpRequest): McpRequest {
  const a = req.action;
  if (a === 'readResource' || a === 'getPrompt') {
    if (req.server === undefined) {
      throw new ValidationError(
        `mcp:${a} needs the server of the ${a === 'getPrompt' ? 'prompt' : 'resource'}: --server NAME (in a batch line, "server")`,
      );
    }
    checkName('the server name', req.server);
  } else if (req.server !== undefined) {
    throw new ValidationError(
      a === 'invokeTool'
        ? 'mcp:invokeTool names its server in the destination (SERVER/TOOL), not with --server'
        : `mcp:${a} takes no --server`,
    );
  }
  if (req.args !== undefined && a !== 'invokeTool') {
    throw new ValidationError('arguments (--args) belong to mcp:invokeTool only');
  }
  if (a === 'invokeTool') {
    const slash = req.destination.indexOf('/');
    if (slash <= 0 || slash === req.destination.length - 1) {
      throw new ValidationError(`a tool is named SERVER/TOOL (like notion/search), not "${req.destination}"`);
    }
    checkName('the server name', req.destination.slice(0, slash));
    checkName('the tool name', req.destination.slice(slash + 1));
  } else {
    const what = {
      register: 'the server name',
      invokePrimordial: 'the primordial',
      readResource: 'the URI',
      getPrompt: 'the prompt name',
    }[a];
    checkName(what, req.destination);
  }
  return req;
}

const PRINCIPAL = { type: 'MCP::Principal', id: '' };

export interface CedarCall {
  principal: { type: string; id: string };
  action: { type: string; id: string };
  resource: { type: string; id: string };
  context: Record<string, unknown>;
  entities: EntityJson[];
}

/** Only the fields `mentions` holds (all of them without it). */
function only<T extends Record<string, unknown>>(o: T, mentions: ReadonlySet<string> | undefined): T {
  if (mentions === undefined) return o;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) if (mentions.has(k)) out[k] = o[k];
  return out as T;
}

/**
 * The Cedar request of an MCP request. Entity ids (not documented): a server's is its name; a tool's,
 * a prompt's and a primordial's their name, a resource's its URI; each belongs to its server.
 * `now` is `context.request_time` (absent on `register`). With `mentions`, context fields and
 * attributes no policy names are left out (Cedar reads them only by name: the answer is the same).
 */
export function cedarCall(req: McpRequest, now: string, mentions?: ReadonlySet<string>): CedarCall {
  const attrs = req.attrs ?? {};
  const action = { type: 'MCP::Action', id: req.action };
  const context: Record<string, unknown> = {};
  if (req.action !== 'register' && (mentions === undefined || mentions.has('request_time'))) {
    context.request_time = { __extn: { fn: 'datetime', arg: now } };
  }
  if (
    req.args !== undefined &&
    req.action === 'invokeTool' &&
    (mentions === undefined || mentions.has('args'))
  ) {
    context.args = req.args;
  }
  let resource: { type: string; id: string };
  let entity: EntityJson;
  switch (req.action) {
    case 'register':
      resource = { type: 'MCP::Server', id: req.destination };
      entity = { uid: resource, attrs: only({ ...attrs }, mentions), parents: [] } as EntityJson;
      break;
    case 'invokeTool': {
      const slash = req.destination.indexOf('/');
      const server = req.destination.slice(0, slash);
      const name = req.destination.slice(slash + 1);
      resource = { type: 'MCP::Tool', id: name };
      entity = {
        uid: resource,
        attrs: only({ name, ...TOOL_DEFAULTS, ...attrs }, mentions),
        parents: [{ type: 'MCP::Server', id: server }],
      } as EntityJson;
      break;
    }
    case 'invokePrimordial':
      resource = { type: 'MCP::Primordial', id: req.destination };
      entity = { uid: resource, attrs: {}, parents: [] } as EntityJson;
      break;
    case 'readResource':
      resource = { type: 'MCP::Resource', id: req.destination };
      entity = {
        uid: resource,
        attrs: only({ uri: req.destination }, mentions),
        parents: [{ type: 'MCP::Server', id: req.server! }],
      } as EntityJson;
      break;
    case 'getPrompt':
      resource = { type: 'MCP::Prompt', id: req.destination };
      entity = {
        uid: resource,
        attrs: only({ name: req.destination }, mentions),
        parents: [{ type: 'MCP::Server', id: req.server! }],
      } as EntityJson;
      break;
  }
  return { principal: PRINCIPAL, action, resource, context, entities: [entity] };
}
