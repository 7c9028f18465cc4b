// One MCP request at a time against the cedar_v1 policies of a set of policy documents: what
// `policy test` (cases with `attrs`, `args`, `server` and `expect: approval-required`) and
// `policy replay` (MCP audit events) plug in. The Cedar engine loads only when there is a Cedar
// text among the documents.
import {
  compileCedar,
  type McpDecisionKind,
  McpEvaluator,
  mcpRequestFromJson,
  type PolicyDoc,
} from '../../policy/index.js';
import { cedarSources } from './cedar-sources.js';
import type { PolicyTexts } from './sources.js';

export interface McpCaseRequest {
  /** `mcp:invokeTool` … */
  action: string;
  destination: string;
  mcp?: { attrs?: Record<string, unknown>; args?: unknown; server?: string };
}

export interface McpCaseAnswer {
  decision: McpDecisionKind;
  /** The approval's reason when there is one, else why (`permitted by file:line`, `no permit matches …`). */
  reason: string;
  /** The deciding policies: the hubctl policy, and where in it (`file:line`). */
  rules: { policy: string; rule: string }[];
}

/**
 * A decider of MCP requests against the cedar_v1 policies among `policies` (none: every request is
 * denied by default). Throws ValidationError (exit 2) for a Cedar text that does not parse, and the
 * returned function throws it for a request it cannot decide (an unknown action or attribute, …).
 * `now` is `context.request_time` for every request.
 */
export async function cedarDecider(
  policies: readonly PolicyDoc[],
  now: Date,
  texts?: PolicyTexts,
): Promise<(c: McpCaseRequest) => McpCaseAnswer> {
  const set = await compileCedar(cedarSources(policies, texts));
  const evaluator = new McpEvaluator(set, { now: now.toISOString() });
  return (c) => {
    const d = evaluator.decide(
      mcpRequestFromJson({ action: c.action, destination: c.destination, ...(c.mcp ?? {}) }),
    );
    return {
      decision: d.decision,
      reason: d.reason ?? d.summary,
      rules: d.policies.map((p) => ({ policy: p.policy, rule: p.at })),
    };
  };
}
