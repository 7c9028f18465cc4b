// Where `policy test` (and later `policy replay`) hand MCP requests (`mcp:…` actions) to the Cedar
// engine. Until that engine is on main this is the one place that says it is missing: every MCP
// case is then "not decided" with this sentence (exit 2 unless it expects `undecided`).
//
// To plug the engine in: make `mcpDecider` load it (a dynamic import, so that a run without MCP
// cases never loads it), compile the `cedar_v1` policies once, and return a function that decides
// one case from `c.action`, `c.destination` and `c.mcp` ({attrs, args, server}) and answers
// {decision: allow | deny | approval-required, reason, rules: [{policy, rule}]}; throwing a
// HubctlError for a case it cannot decide.
import { ValidationError } from '../../errors.js';
import type { McpDecider, PolicyDoc } from '../../policy/index.js';

export const NO_CEDAR_ENGINE =
  'MCP cases need the Cedar engine, which this build of hubctl does not have yet (see the MCP policies issue)';

/** The decider of MCP cases against the `cedar_v1` policies among `policies`. */
export async function mcpDecider(policies: readonly PolicyDoc[]): Promise<McpDecider> {
  void policies;
  return () => {
    throw new ValidationError(NO_CEDAR_ENGINE);
  };
}
