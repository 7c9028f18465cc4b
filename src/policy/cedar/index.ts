// Cedar (MCP) policies behind the policy engine's face: the schema, compiling, deciding, checking.
// Nothing here loads the engine until a Cedar text is compiled or checked (wasm.ts).
export { type CedarLintCode, type CedarWarning, isMcpSchema, lintCedar, sendProblems } from './check.js';
export {
  evaluateMcp,
  type McpDecision,
  type McpDecisionKind,
  McpEvaluator,
  type McpPolicyError,
  type McpPolicyRef,
  mcpDecisionJson,
} from './evaluate.js';
export {
  MCP_ACTIONS,
  MCP_SCHEMA_TEXT,
  MCP_SCHEMA_URL,
  MCP_SCHEMA_VERSION,
  type McpAction,
  mcpSchemaJson,
  SERVER_TYPES,
  TOOL_DEFAULTS,
} from './mcp-schema.js';
export { type CedarPolicySet, type CedarSource, compileCedar, placeOf } from './policy-set.js';
export {
  isMcpAction,
  type McpRequest,
  mcpActionOf,
  mcpRequest,
  mcpRequestFromJson,
  SETTABLE_ATTRS,
} from './request.js';
export { firstLineIn } from './text.js';
export { type Cedar, loadCedar } from './wasm.js';
