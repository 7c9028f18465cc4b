// `hubctl policy replay EVENTS… -f CANDIDATE… [--baseline-file BASE…]`: recorded audit events
// (NDJSON, either shape) decided again under a baseline (files, or the live policies of --org) and a
// candidate; what would change, grouped by request, and where the record differs from the baseline.
// Exit 0 no change, 10 decisions change, 2 bad input.
import type { Command } from 'commander';
import { type ChangeJson, Replayer, type ReplayReport } from '../../audit/replay.js';
import type { Context } from '../../context.js';
import { ExitCode, UsageError } from '../../errors.js';
import { safeJson } from '../../json-text.js';
import { applicablePolicies, assertDecidable, compilePolicies, type PolicyDoc } from '../../policy/index.js';
import { type CommandHost, collectRepeat, examples } from '../host.js';
import { policyFiles } from './as-code.js';
import { EventFiles } from './event-files.js';
import { loadPolicies } from './sources.js';
import { resolveScopes, resolveTeams } from './team-scope.js';

export interface ReplayOptions {
  events: string[];
  candidate: string[];
  baseline: string[];
  teams: string[];
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('replay')
    .description(
      'Decide recorded audit events again under a candidate policy set: what would change, and for whom (exit 10: changes)',
    )
    .argument('<events...>', 'audit events as NDJSON (audit export, or local audit files); - for stdin')
    .option(
      '-f, --file <path>',
      'candidate policy file or directory of them, YAML or JSON (repeatable)',
      collectRepeat,
    )
    .option(
      '--baseline-file <path>',
      'baseline policy file or directory (repeatable); default: the live policies of --org',
      collectRepeat,
    )
    .option(
      '--team <team>',
      "scope both sets to the org-wide policies plus this team's, by name or UUID (repeatable)",
      collectRepeat,
    )
    .action((events: string[], raw: { file?: string[]; baselineFile?: string[]; team?: string[] }) => {
      const opts: ReplayOptions = {
        events,
        candidate: raw.file ?? [],
        baseline: raw.baselineFile ?? [],
        teams: raw.team ?? [],
      };
      if (opts.candidate.length === 0) throw new UsageError('name the candidate policies with -f FILE');
      if (events.filter((e) => e === '-').length > 1) throw new UsageError('- (stdin) can be named once');
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'hubctl audit export --since 7d -o events.ndjson',
    'hubctl policy replay events.ndjson -f policies/ --org acme',
    'hubctl policy replay events.ndjson -f candidate.yaml --baseline-file policies/egress.yaml --json',
    'cat ~/.local/state/sandboxes/sandboxes/auditkit/*.jsonl | hubctl policy replay - -f candidate.yaml --baseline-file current.yaml',
  ]);
}

/** Scoped as --team says: org-wide policies plus those of the teams; Cedar policies set aside (no MCP event is replayed). */
function scoped(docs: PolicyDoc[], teams: string[]): PolicyDoc[] {
  return applicablePolicies(docs, teams).filter((p) => p.type !== 'cedar_v1');
}

export async function run(ctx: Context, opts: ReplayOptions): Promise<number> {
  // every file opened before any request: a missing one is a usage error, nothing sent
  const events = EventFiles.open(opts.events);
  try {
    // files first (a bad one is refused before any request), then the teams, then the live policies
    const files = (paths: string[]) =>
      loadPolicies(ctx, { files: paths, policies: [], teams: [], live: false });
    const candidateFiles = await files(await policyFiles(opts.candidate));
    const baselineFiles = opts.baseline.length > 0 ? await files(await policyFiles(opts.baseline)) : null;
    const teams = await resolveTeams(ctx, opts.teams);
    const inScope = async (docs: PolicyDoc[]) =>
      scoped(teams.length > 0 ? await resolveScopes(ctx, docs) : docs, teams);
    const candidateDocs = await inScope(candidateFiles);
    const baselineDocs = await inScope(
      baselineFiles ?? (await loadPolicies(ctx, { files: [], policies: [], teams, live: true })),
    );
    const home = ctx.env.HOME;
    const baseline = compilePolicies(baselineDocs, { home });
    const candidate = compilePolicies(candidateDocs, { home });
    assertDecidable(baseline);
    assertDecidable(candidate);
    const replayer = new Replayer(baseline, candidate);
    await events.readLines(ctx, (path) => ({
      line: (text, n) => replayer.line(text, path, n),
      lineIn: (text, start, end, n, ascii) => replayer.lineIn(text, start, end, path, n, ascii),
      tooLong: () => replayer.tooLong(),
    }));
    const report = replayer.report();
    await show(ctx, report);
    return report.changes.length > 0 || report.ungrouped.changes > 0 ? ExitCode.DIFFERS : ExitCode.OK;
  } finally {
    events.close();
  }
}

/**
 * The report as one JSON document, written a group a line: the whole document as one string would
 * cost several times its size (tens of MB for a month of a large organization's traffic).
 */
function printReportJson(ctx: Context, report: ReplayReport): void {
  const { read, replayed, skipped, changes, drift, ungrouped } = report;
  const list = (items: unknown[], indent: string) => {
    items.forEach((item, i) => {
      ctx.output.line(`${indent}${safeJson(item)}${i < items.length - 1 ? ',' : ''}`);
    });
  };
  ctx.output.line('{');
  ctx.output.line(`  "read": ${read},`);
  ctx.output.line(`  "replayed": ${replayed},`);
  ctx.output.line(`  "skipped": ${safeJson(skipped)},`);
  ctx.output.line(`  "changes": [${changes.length === 0 ? '],' : ''}`);
  if (changes.length > 0) {
    list(changes, '    ');
    ctx.output.line('  ],');
  }
  ctx.output.line(
    `  "drift": {"count": ${drift.count}, "groups": [${drift.groups.length === 0 ? ']},' : ''}`,
  );
  if (drift.groups.length > 0) {
    list(drift.groups, '    ');
    ctx.output.line('  ]},');
  }
  ctx.output.line(`  "ungrouped": ${safeJson(ungrouped)}`);
  ctx.output.line('}');
}

function rulesText(rules: { policy: string; rule: string }[], reason: string): string {
  if (rules.length === 0) return reason;
  return rules.map((r) => `rule "${r.rule}" of policy "${r.policy}"`).join(', ');
}

function span(first: string | null, last: string | null): string {
  if (first === null) return 'no time recorded';
  return first === last ? first : `${first} … ${last}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

async function show(ctx: Context, report: ReplayReport): Promise<void> {
  if (ctx.output.json) {
    printReportJson(ctx, report);
    return;
  }
  const skippedTotal = Object.values(report.skipped).reduce((a, b) => a + b, 0);
  ctx.output.info(
    `${plural(report.read, 'event')} read: ${report.replayed} replayed, ${skippedTotal} not replayed`,
  );
  for (const [reason, n] of Object.entries(report.skipped)) ctx.output.info(`  ${n}  ${reason}`);
  if (report.firstBadLine)
    ctx.output.info(
      `  (the first line that is not JSON: ${report.firstBadLine.input}:${report.firstBadLine.line})`,
    );
  const section = async (title: string, list: ChangeJson[], colour: 'red' | 'green') => {
    if (list.length === 0) return;
    const events = list.reduce((a, c) => a + c.count, 0);
    ctx.output.line(
      await ctx.output.style(
        `${title}: ${plural(list.length, 'request')}, ${plural(events, 'event')}`,
        'bold',
        colour,
      ),
    );
    for (const c of list) {
      ctx.output.line(
        `  ${c.action} ${c.resource}  ${plural(c.count, 'event')}, ${plural(c.users.length, 'user')}, ${plural(c.agents.length, 'agent')}, ${span(c.first, c.last)}`,
      );
      ctx.output.line(`    before: ${c.before} (${rulesText(c.rules.before, c.reasons.before)})`);
      ctx.output.line(`    after:  ${c.after} (${rulesText(c.rules.after, c.reasons.after)})`);
      if (c.users.length > 0)
        ctx.output.line(`    users:  ${c.users.slice(0, 10).join(', ')}${c.users.length > 10 ? ', …' : ''}`);
    }
  };
  await section(
    'newly denied',
    report.changes.filter((c) => c.after === 'deny'),
    'red',
  );
  await section(
    'newly allowed',
    report.changes.filter((c) => c.after !== 'deny'),
    'green',
  );
  if (report.changes.length === 0) ctx.output.line('no decision changes');
  if (report.ungrouped.changes > 0)
    ctx.output.line(
      `(${plural(report.ungrouped.changes, 'more changed event')} in requests past the first ${report.changes.length})`,
    );
  if (report.drift.count > 0) {
    ctx.output.line(
      `drift: ${plural(report.drift.count, 'event')} recorded with another decision than the baseline gives (${plural(report.drift.groups.length, 'request')})`,
    );
    for (const d of report.drift.groups.slice(0, 20)) {
      ctx.output.line(
        `  ${d.action} ${d.resource}  recorded ${d.recorded}, baseline ${d.baseline}, ${plural(d.count, 'event')}, ${span(d.first, d.last)}`,
      );
    }
    if (report.drift.groups.length > 20)
      ctx.output.line(`  … ${report.drift.groups.length - 20} more (--json lists them all)`);
  }
}
