// `hubctl policy eval`: would this request be allowed, and by which rule? Offline with --file; live
// with --policy or --team. `--batch` reads requests from stdin, one a line, and writes one JSON
// decision a line. Exit 0 allowed, 3 denied, 2 bad input (with --batch: any line not decided).
// MCP requests (`mcp:*`) are decided by the cedar_v1 policies, in eval-mcp.ts, loaded only for them.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ExitCode, UsageError } from '../../errors.js';
import {
  assertDecidable,
  type BatchOptions,
  BatchProcessor,
  type CompiledPolicySet,
  compilePolicies,
  type EvalResult,
  evaluate,
} from '../../policy/index.js';
import { type CommandHost, examples } from '../host.js';
import { addOptions, type OptionSpec } from '../option-table.js';
import type { EvalOptions } from './eval-options.js';
import { loadPolicies, type PolicyTexts } from './sources.js';

export type { EvalOptions };

export interface RawOptions {
  file?: string[];
  policy?: string[];
  team?: string[];
  explain?: boolean;
  batch?: boolean;
  failOnDeny?: boolean;
  attr?: string[];
  args?: string;
  server?: string;
}

/** The options of `policy eval`, read by commander and by the fast path of src/cli.ts alike. */
export const EVAL_OPTIONS: readonly OptionSpec[] = [
  { flags: '-f, --file <path>', description: 'policy file, YAML or JSON (repeatable)', repeat: true },
  { flags: '--policy <policy>', description: 'fetch this policy by id or name (repeatable)', repeat: true },
  {
    flags: '--team <team>',
    description: 'evaluate the policies that apply to this team (name or UUID) in --org (repeatable)',
    repeat: true,
  },
  { flags: '--explain', description: 'show every rule that matched and why' },
  {
    flags: '--batch',
    description: 'read requests from stdin (NDJSON or "action destination" lines), write one JSON a line',
  },
  {
    flags: '--fail-on-deny',
    description:
      'with --batch: exit 3 when any request was denied (a line that cannot be decided always exits 2)',
  },
  {
    flags: '--attr <key=value>',
    description:
      'mcp:*: an attribute of the resource (repeatable): readOnly=true, type=local-stdio, args=\'["-v"]\'',
    repeat: true,
  },
  {
    flags: '--args <json>',
    description: "mcp:invokeTool: the call's arguments, a JSON object (context.args)",
  },
  {
    flags: '--server <name>',
    description: 'mcp:readResource, mcp:getPrompt: the server of the resource or prompt',
  },
];

/** The checks of the command line, after parsing: shared by commander's action and the fast path. */
export function evalOptions(
  action: string | undefined,
  destination: string | undefined,
  raw: RawOptions,
): EvalOptions {
  const opts: EvalOptions = {
    action,
    destination,
    files: raw.file ?? [],
    policies: raw.policy ?? [],
    teams: raw.team ?? [],
    live: false,
    explain: Boolean(raw.explain),
    batch: Boolean(raw.batch),
    failOnDeny: Boolean(raw.failOnDeny),
    attrs: raw.attr,
    args: raw.args,
    server: raw.server,
  };
  if (opts.batch && action !== undefined) {
    throw new UsageError('--batch reads requests from stdin: give no action or destination');
  }
  if (!opts.batch && (action === undefined || destination === undefined)) {
    throw new UsageError(
      'give an action and a destination, e.g. `hubctl policy eval connect:tcp github.com -f policy.yaml`',
    );
  }
  if (opts.failOnDeny && !opts.batch) throw new UsageError('--fail-on-deny applies to --batch');
  if (
    (raw.attr !== undefined || raw.args !== undefined || raw.server !== undefined) &&
    !action?.startsWith('mcp:')
  ) {
    throw new UsageError(
      opts.batch
        ? '--attr, --args and --server describe one MCP request; in a batch each line carries its own attrs, args and server'
        : '--attr, --args and --server apply to MCP requests (mcp:invokeTool …)',
    );
  }
  // Nothing named: every policy that applies in the organization.
  opts.live = opts.files.length === 0 && opts.policies.length === 0;
  return opts;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('eval')
    .description(
      'Decide whether a request would be allowed, and by which rule: offline with --file, else the policies of --org',
    )
    .argument(
      '[action]',
      'connect:tcp, connect:udp, read, write, an HTTP method (request:get …), or an MCP action (mcp:invokeTool …)',
    )
    .argument(
      '[destination]',
      'host, host:port, [v6]:port, URL, or a path (/… or ~/…); for request:* an http(s) URL; for mcp:* SERVER/TOOL, a server, a primordial, a URI or a prompt',
    );
  addOptions(cmd, EVAL_OPTIONS).action(
    (action: string | undefined, destination: string | undefined, raw: RawOptions) => {
      const opts = evalOptions(action, destination, raw);
      return host.run((ctx) => runner(ctx, opts));
    },
  );
  return examples(cmd, [
    'hubctl policy eval connect:tcp api.github.com:443 -f examples/network.yaml',
    'hubctl policy eval read ~/src/app/main.go -f examples/filesystem.yaml --explain',
    'hubctl policy eval request:get https://api.github.com/repos/x -f policy.yaml --explain',
    'hubctl policy eval connect:tcp 169.254.169.254:80 --policy egress --json',
    'hubctl --org acme policy eval connect:tcp registry.npmjs.org --team developers',
    'hubctl policy eval --batch -f policy.yaml --fail-on-deny < requests.ndjson > decisions.ndjson',
    'hubctl policy eval mcp:invokeTool notion/search -f mcp.cedar --explain',
    'hubctl policy eval mcp:invokeTool stripe/refund --args \'{"amount": 500}\' -f mcp.yaml --json',
    'hubctl policy eval mcp:register notion --attr type=remote-dcr --attr requiresOAuth=true --policy mcp',
    'hubctl policy eval mcp:readResource file:///docs/a.md --server fs -f mcp.cedar',
  ]);
}

export async function run(ctx: Context, opts: EvalOptions): Promise<number> {
  if (!opts.batch && opts.action!.startsWith('mcp:'))
    return (await import('./eval-mcp.js')).runMcp(ctx, opts);
  const texts: PolicyTexts | undefined = opts.batch ? new Map() : undefined;
  const all = await loadPolicies(ctx, opts, texts);
  // Cedar policies govern MCP requests only: a network or filesystem request is not theirs to decide.
  const policies = all.filter((p) => p.type !== 'cedar_v1');
  if (policies.length === 0 && all.length > 0 && !opts.batch) {
    throw new UsageError(
      `the policies given are cedar_v1 (MCP) policies: they decide mcp:* requests, not ${opts.action}`,
    );
  }
  // `~` in rules is this user's home here, so a path the shell expanded still matches `~/…` rules.
  const set = compilePolicies(policies, { home: ctx.env.HOME });
  // fail closed: a rule or policy hubctl cannot evaluate could decide any request
  assertDecidable(set);
  if (opts.batch) {
    // Its lines are written as they are decided, not as one document: a jq of its own reads them.
    if (ctx.globals.jq !== undefined) {
      throw new UsageError('--jq does not apply to --batch: pipe its lines to `jq -c` instead');
    }
    const { mcpLineDecider } = await import('./eval-mcp.js');
    const mcp = await mcpLineDecider(ctx, all, texts!);
    return runBatch(ctx, set, opts, mcp);
  }
  const result = evaluate(set, opts.action!, opts.destination!, { explain: opts.explain });
  await show(ctx, result);
  return result.decision === 'allow' ? ExitCode.OK : ExitCode.DENIED;
}

async function show(ctx: Context, r: EvalResult): Promise<void> {
  if (ctx.output.json) {
    const out: Record<string, unknown> = { decision: r.decision, reason: r.reason, matched: r.matched };
    if (r.notEvaluated.length > 0) out.not_evaluated = r.notEvaluated;
    ctx.output.printJson(out);
    return;
  }
  ctx.output.line(await ctx.output.style(r.decision, 'bold', r.decision === 'allow' ? 'green' : 'red'));
  ctx.output.line(`reason: ${r.reason}`);
  for (const m of r.matched) {
    const head = `  ${m.decision.padEnd(5)}  rule "${m.rule}" of policy "${m.policy}": ${m.resource}`;
    ctx.output.line(head);
    if (m.why) ctx.output.line(`         ${m.why}`);
  }
}

type Writable = {
  write(chunk: string | Uint8Array): unknown;
  once?: (event: 'drain', cb: () => void) => unknown;
  writableHighWaterMark?: number;
};

/** Writes, then waits for 'drain' when the stream says its buffer is full (a slow pipe). */
async function write(out: Writable, chunk: string | Uint8Array): Promise<void> {
  if (out.write(chunk) === false && typeof out.once === 'function') {
    await new Promise<void>((resolve) => out.once!('drain', resolve));
  }
}

async function runBatch(
  ctx: Context,
  set: CompiledPolicySet,
  opts: EvalOptions,
  mcp: BatchOptions['mcp'],
): Promise<number> {
  const batch = new BatchProcessor(set, { explain: opts.explain, mcp });
  const out = ctx.io.stdout as Writable;
  // A Node stream takes the output bytes as they are; a sink of strings gets them decoded.
  const bytesOut = typeof out.writableHighWaterMark === 'number';
  const decoder = new TextDecoder();
  const emit = (bytes: Uint8Array | null): Promise<void> | undefined => {
    if (bytes === null) return undefined;
    return write(out, bytesOut ? bytes : decoder.decode(bytes, { stream: true }));
  };
  const encoder = new TextEncoder();
  for await (const chunk of ctx.io.stdin) {
    const input = typeof chunk === 'string' ? encoder.encode(chunk) : (chunk as Uint8Array);
    const pending = emit(batch.pushBytes(input));
    if (pending !== undefined) await pending;
  }
  const pending = emit(batch.endBytes());
  if (pending !== undefined) await pending;
  const { total, denied, errors } = batch.counts;
  ctx.output.info(
    `${total} request${total === 1 ? '' : 's'}: ${total - denied - errors} allowed, ${denied} denied, ${errors} malformed`,
  );
  // a line that could not be decided fails the batch, before any denial: it may have been one
  if (errors > 0) return ExitCode.USAGE;
  return opts.failOnDeny && denied > 0 ? ExitCode.DENIED : ExitCode.OK;
}
