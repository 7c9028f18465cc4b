// `policy eval mcp:<action> <destination>`: an MCP request decided by the cedar_v1 policies given
// (files, or live with --policy/--team), and the MCP lines of `--batch`. Loaded only for MCP work;
// the Cedar engine itself loads only when there is a Cedar text to compile.
import type { Context } from '../../context.js';
import { ExitCode } from '../../errors.js';
import { safeJson } from '../../json-text.js';
import {
  type BatchRequest,
  compileCedar,
  type McpDecision,
  McpEvaluator,
  type McpLineResult,
  type McpRequest,
  mcpDecisionJson,
  mcpRequest,
  mcpRequestFromJson,
  type PolicyDoc,
} from '../../policy/index.js';
import { cedarSources } from './cedar-sources.js';
import type { EvalOptions } from './eval-options.js';
import { loadPolicies, type PolicyTexts } from './sources.js';

async function evaluatorFor(
  ctx: Context,
  docs: readonly PolicyDoc[],
  texts: PolicyTexts,
): Promise<McpEvaluator> {
  const sources = cedarSources(docs, texts);
  if (sources.length === 0 && docs.length > 0) {
    ctx.output.info('no cedar_v1 policy among those given: every MCP request is denied by default');
  }
  const set = await compileCedar(sources);
  return new McpEvaluator(set, { now: new Date(ctx.clock.now()).toISOString() });
}

export async function runMcp(ctx: Context, opts: EvalOptions): Promise<number> {
  // the request first: a bad one is refused before any file is read or request sent
  const req = mcpRequest(opts.action!, opts.destination!, {
    attrs: opts.attrs,
    args: opts.args,
    server: opts.server,
  });
  const texts: PolicyTexts = new Map();
  const docs = await loadPolicies(ctx, opts, texts);
  const d = (await evaluatorFor(ctx, docs, texts)).decide(req);
  await show(ctx, d, opts.explain);
  return d.decision === 'allow' ? ExitCode.OK : ExitCode.DENIED;
}

async function show(ctx: Context, d: McpDecision, explain: boolean): Promise<void> {
  if (ctx.output.json) {
    ctx.output.printJson(mcpDecisionJson(d));
    return;
  }
  const colour = d.decision === 'allow' ? 'green' : d.decision === 'deny' ? 'red' : 'yellow';
  ctx.output.line(await ctx.output.style(d.decision, 'bold', colour));
  if (d.reason !== undefined) ctx.output.line(`reason: ${d.reason}`);
  ctx.output.line(d.summary);
  if (!explain) return;
  for (const p of d.policies) {
    const approval = p.approval === undefined ? '' : `  @requireApproval(${JSON.stringify(p.approval)})`;
    ctx.output.line(`  ${p.effect.padEnd(6)}  ${p.at}  policy "${p.policy}"${approval}`);
  }
  for (const e of d.errors) {
    ctx.output.line(`  error   ${e.effect} at ${e.at} (policy "${e.policy}") did not apply: ${e.message}`);
  }
}

/** Past this, the line → answer cache starts again (1,000 distinct tools fit many times over). */
const LINE_CACHE_MAX = 100_000;

/**
 * The MCP decider of `--batch`: one JSON line per MCP request line. The answer of a line is kept
 * by its text: the same line always gets the same answer (the time is read once per batch).
 */
export async function mcpLineDecider(
  ctx: Context,
  docs: readonly PolicyDoc[],
  texts: PolicyTexts,
): Promise<(line: string, req: BatchRequest) => McpLineResult> {
  const sources = cedarSources(docs, texts);
  const set = await compileCedar(sources);
  const evaluator = new McpEvaluator(set, { now: new Date(ctx.clock.now()).toISOString() });
  const cache = new Map<string, McpLineResult>();
  return (line, parsed) => {
    const key = line.trim();
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    let req: McpRequest;
    if (key.charCodeAt(0) === 123) req = mcpRequestFromJson(JSON.parse(key) as Record<string, unknown>);
    else req = mcpRequest(parsed.action, parsed.destination);
    const d = evaluator.decide(req);
    const out: Record<string, unknown> = { action: parsed.action, destination: parsed.destination };
    if (req.server !== undefined) out.server = req.server;
    const result = { text: safeJson({ ...out, ...mcpDecisionJson(d) }), denied: d.decision !== 'allow' };
    if (cache.size >= LINE_CACHE_MAX) cache.clear();
    cache.set(key, result);
    return result;
  };
}
