// Where `policy test` hands MCP requests (`mcp:…` actions) to the Cedar engine: the cedar_v1
// policies given are compiled once (the engine loads only when a run has MCP cases), and each case
// is decided as `policy eval mcp:…` decides it, with its attrs, args and server. A case the
// engine refuses (a bad attribute, a bad destination) is "not decided", with its sentence.
import type { Context } from '../../context.js';
import {
  compileCedar,
  type McpDecider,
  McpEvaluator,
  mcpRequestFromJson,
  type PolicyDoc,
} from '../../policy/index.js';
import { cedarSources } from './cedar-sources.js';
import type { PolicyTexts } from './sources.js';

/** The decider of MCP cases against the `cedar_v1` policies among `policies`. */
export async function mcpDecider(
  ctx: Context,
  policies: readonly PolicyDoc[],
  texts?: PolicyTexts,
): Promise<McpDecider> {
  const set = await compileCedar(cedarSources(policies, texts));
  const ev = new McpEvaluator(set, { now: new Date(ctx.clock.now()).toISOString() });
  return (c) => {
    const req = mcpRequestFromJson({ action: c.action, destination: c.destination, ...(c.mcp ?? {}) });
    const d = ev.decide(req);
    return {
      decision: d.decision,
      reason: d.reason ?? d.summary,
      rules: d.policies.map((p) => ({ policy: p.policy, rule: p.at })),
    };
  };
}
