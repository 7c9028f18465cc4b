// The Cedar request of an MCP request: the principal, action and resource, the one resource entity
// with its attributes and its server, and the context. Pure: no IO.
import { TOOL_DEFAULTS } from './mcp-schema.js';
import type { McpRequest } from './request.js';
import type { EntityJson } from './wasm.js';

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
