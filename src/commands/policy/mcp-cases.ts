// Where `policy test` hands MCP requests (`mcp:…` actions) to the Cedar engine: the cedar_v1 policies
// are compiled once (the engine loads only when a run has MCP cases, and only when there is a Cedar
// text), and each case is decided from its action, destination and `attrs`/`args`/`server`
// (mcp-decider.ts). A case it cannot decide throws a HubctlError: "not decided".
import type { McpDecider, PolicyDoc } from '../../policy/index.js';

/** The decider of MCP cases against the `cedar_v1` policies among `policies`. */
export async function mcpDecider(policies: readonly PolicyDoc[], now = new Date()): Promise<McpDecider> {
  const { cedarDecider } = await import('./mcp-decider.js');
  const decide = await cedarDecider(policies, now);
  return (c) => decide({ action: c.action, destination: c.destination, ...(c.mcp ? { mcp: c.mcp } : {}) });
}
