// The Cedar schema of MCP policies (`cedar_v1`), written from the documented facts: the service's own
// schema (MCP_SCHEMA_URL) is not reachable from where hubctl is built, so this is hubctl's reading of
// its documentation (shared/spec/audit-and-mcp.md §3). One place; `hubctl policy schema mcp` prints it.
//
// Each documented fact it encodes:
//  1. Namespace `MCP`.
//  2. Actions `register`, `invokeTool`, `invokePrimordial`, `readResource`, `getPrompt` are gated;
//     `listTools`, `listResources`, `subscribeResource` exist in the schema but are not gated.
//  3. `MCP::Server`: identity is the registered name; attributes `type` (`local-stdio`,
//     `container-stdio`, `remote-dcr`, `remote-no-dcr`), `identityURL`, `requiresOAuth`,
//     `requiresNetwork`, `command` (a string, may be empty), `args` (a set of strings).
//  4. `MCP::Tool` belongs to its server (`resource in MCP::Server::"notion"`); attributes `name` (the
//     bare tool name), `readOnly`, `destructive`, `idempotent`, `openWorld` (defaults false, true,
//     false, true: the defaults are the evaluator's, a schema has none).
//  5. `MCP::Resource` has `uri`; `MCP::Prompt` has `name`; both belong to their server (`--server`).
//  6. `MCP::Primordial` (the gateway's built-in meta-tools, `mcp-exec`, `code-mode`) has no attributes:
//     it is matched by entity reference.
//  7. `context.request_time` on tool calls, primordial calls, resource reads and prompts, not on
//     `register` (a register permit conditioned on it never matches: here it fails validation).
//  8. `context.args` (optional) only on `invokeTool`: the call's arguments when they are an object.
//
// Not documented, hubctl's choices (said in the README):
//  - The principal's type. The policy's scope supplies the principal and clauses about it never
//    match, so `MCP::Principal` has no attributes and nothing is a member of anything.
//  - The type of `request_time`: Cedar's `datetime`.
//  - The shape of `args`: any object. Cedar schemas cannot say "any record" (open records are an
//    experimental feature), so `args` is an empty record here and validation problems that come
//    from `context.args` are left to `policy lint`, which checks that every access is guarded.
//  - The context of the ungated actions: empty.

/** The schema URL of MCP policies, as the service names it. */
export const MCP_SCHEMA_URL = 'https://schemas.docker.com/policy/cedar/v1/mcp/v0';

/** hubctl's version of its reading of the MCP schema (bumped when the facts above change). */
export const MCP_SCHEMA_VERSION = '0.1.0';

/** The MCP schema in Cedar schema syntax. */
export const MCP_SCHEMA_TEXT = `// MCP policies (cedar_v1), ${MCP_SCHEMA_URL}
// hubctl's reading of the product's documentation, version ${MCP_SCHEMA_VERSION} (README: MCP policies).
namespace MCP {
  // Supplied by the policy's scope (org-wide or teams): clauses about it never match.
  entity Principal;

  entity Server {
    // local-stdio, container-stdio, remote-dcr or remote-no-dcr
    type: String,
    // canonical identity: a remote endpoint URL, a local command's resolved path, or local://stdio/<name>
    identityURL: String,
    requiresOAuth: Bool,
    requiresNetwork: Bool,
    // may be empty
    command: String,
    args: Set<String>,
  };

  entity Tool in [Server] {
    // the bare tool name: a rule on it matches that tool on every server
    name: String,
    readOnly: Bool,     // default false
    destructive: Bool,  // default true
    idempotent: Bool,   // default false
    openWorld: Bool,    // default true
  };

  entity Resource in [Server] {
    uri: String,
  };

  entity Prompt in [Server] {
    name: String,
  };

  // Built-in meta-tools of the gateway (mcp-exec, code-mode): matched by entity reference.
  entity Primordial;

  // A tool call's arguments: any object (see policy lint for guarded access).
  type Args = {};

  action register appliesTo {
    principal: [Principal],
    resource: [Server],
    context: {},
  };

  action invokeTool appliesTo {
    principal: [Principal],
    resource: [Tool],
    context: { request_time: datetime, args?: Args },
  };

  action invokePrimordial appliesTo {
    principal: [Principal],
    resource: [Primordial],
    context: { request_time: datetime },
  };

  action readResource appliesTo {
    principal: [Principal],
    resource: [Resource],
    context: { request_time: datetime },
  };

  action getPrompt appliesTo {
    principal: [Principal],
    resource: [Prompt],
    context: { request_time: datetime },
  };

  // In the schema, not gated.
  action listTools appliesTo {
    principal: [Principal],
    resource: [Server],
    context: {},
  };

  action listResources appliesTo {
    principal: [Principal],
    resource: [Server],
    context: {},
  };

  action subscribeResource appliesTo {
    principal: [Principal],
    resource: [Resource],
    context: {},
  };
}
`;

/** The gated actions, as `policy eval` names them (`mcp:<action>`). */
export const MCP_ACTIONS = [
  'register',
  'invokeTool',
  'invokePrimordial',
  'readResource',
  'getPrompt',
] as const;
export type McpAction = (typeof MCP_ACTIONS)[number];

/** The documented defaults of a tool's attributes, for the ones a request leaves unset. */
export const TOOL_DEFAULTS = {
  readOnly: false,
  destructive: true,
  idempotent: false,
  openWorld: true,
} as const;

/** The documented server types. */
export const SERVER_TYPES = ['local-stdio', 'container-stdio', 'remote-dcr', 'remote-no-dcr'] as const;

/** The schema in Cedar's JSON schema form, converted by the engine (whose loader is passed in). */
export function mcpSchemaJson(cedar: {
  schemaToJson(
    s: string,
  ): { type: 'success'; json: unknown } | { type: 'failure'; errors: { message: string }[] };
}): unknown {
  const r = cedar.schemaToJson(MCP_SCHEMA_TEXT);
  if (r.type === 'failure') throw new Error(`the bundled MCP schema does not parse: ${r.errors[0]?.message}`);
  return r.json;
}
