// What `policy eval` runs with, after its command line is read: shared by eval.ts and the MCP path
// (eval-mcp.ts), which eval.ts loads on demand.
import type { PolicySources } from './sources.js';

export interface EvalOptions extends PolicySources {
  action?: string;
  destination?: string;
  explain: boolean;
  batch: boolean;
  failOnDeny: boolean;
  /** MCP requests: `--attr key=value` (resource attributes), `--args JSON`, `--server NAME`. */
  attrs?: string[];
  args?: string;
  server?: string;
}
