// `hubctl policy test CASES… -f POLICY…`: unit tests for policies. Each case names a request (as
// `policy eval` takes it) and the outcome it expects; the policies are files, named live policies,
// or those that apply in --org. Exit 0 every expectation met, 1 some not (or coverage under
// --fail-under), 2 an invalid file or a case not decided that did not expect `undecided`.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { ExitCode, UsageError } from '../../errors.js';
import { type CaseRun, type PolicyDoc, parseCaseFile, runCases, type TestCase } from '../../policy/index.js';
import { type CommandHost, collectRepeat, examples } from '../host.js';
import { policyFiles } from './as-code.js';
import { mcpDecider } from './mcp-cases.js';
import { loadPolicies, type PolicySources, readPolicyText } from './sources.js';
import { resolveScopes, resolveTeams } from './team-scope.js';
import {
  type Coverage,
  caseJson,
  coverageOf,
  failureText,
  junit,
  ruleText,
  tap,
  where,
} from './test-report.js';

export type TestFormat = 'text' | 'json' | 'junit' | 'tap';
const FORMATS: readonly TestFormat[] = ['text', 'json', 'junit', 'tap'];

export interface TestOptions extends PolicySources {
  caseFiles: string[];
  format: TestFormat;
  coverage: boolean;
  /** Fail (exit 1) when fewer than this percentage of the rules were matched. */
  failUnder?: number;
}

const CASE_FILE_CAP = 64 * 1024 * 1024;

function percent(value: string): number {
  const n = Number(value);
  if (!/^\d{1,3}(\.\d+)?$/.test(value) || n > 100) {
    throw new UsageError(`--fail-under must be a percentage from 0 to 100 (got "${value.slice(0, 40)}")`);
  }
  return n;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('test')
    .description(
      'Run test cases (request + expected decision) against policies: files, or the live ones of --org',
    )
    .argument('<cases...>', 'case files, YAML or JSON: {cases: [{name?, request, expect, team?}]}')
    .option('-f, --file <path>', 'policy file or directory of them, YAML or JSON (repeatable)', collectRepeat)
    .option('--policy <policy>', 'test this live policy, by id or name (repeatable)', collectRepeat)
    .option(
      '--team <team>',
      'test the policies that apply to this team (name or UUID) in --org (repeatable)',
      collectRepeat,
    )
    .option('--format <format>', 'text (default), json, junit or tap')
    .option('--coverage', "report each rule's hits and the rules no case matched")
    .option('--fail-under <pct>', 'exit 1 when fewer than PCT % of the rules were matched', percent)
    .action(
      (
        caseFiles: string[],
        raw: {
          file?: string[];
          policy?: string[];
          team?: string[];
          format?: string;
          coverage?: boolean;
          failUnder?: number;
        },
      ) => {
        const format = (raw.format ?? 'text') as TestFormat;
        if (!FORMATS.includes(format)) {
          throw new UsageError(
            `--format must be one of ${FORMATS.join(', ')} (got "${String(raw.format).slice(0, 40)}")`,
          );
        }
        const opts: TestOptions = {
          caseFiles,
          files: raw.file ?? [],
          policies: raw.policy ?? [],
          teams: raw.team ?? [],
          live: false,
          format,
          coverage: Boolean(raw.coverage),
          failUnder: raw.failUnder,
        };
        opts.live = opts.files.length === 0 && opts.policies.length === 0;
        return host.run((ctx) => runner(ctx, opts));
      },
    );
  return examples(cmd, [
    'hubctl policy test tests/egress.cases.yaml -f policies/egress.yaml',
    'hubctl policy test tests/*.yaml -f policies/ --coverage --fail-under 90',
    'hubctl policy test tests/egress.cases.yaml --policy egress --org acme --format junit > junit.xml',
    'hubctl policy test tests/egress.cases.yaml --org acme --team developers --format tap',
  ]);
}

async function readCases(files: readonly string[]): Promise<TestCase[]> {
  const out: TestCase[] = [];
  for (const f of files) {
    let text: string;
    try {
      text = readPolicyText(f, CASE_FILE_CAP);
    } catch (err) {
      throw new UsageError(String((err as Error).message).replace('policy file', 'case file'));
    }
    for (const c of await parseCaseFile(text, f)) out.push(c);
  }
  return out;
}

export async function run(ctx: Context, opts: TestOptions): Promise<number> {
  // every case file is read and checked before any request
  const cases = await readCases(opts.caseFiles);
  const caseRefs = [...new Set(cases.flatMap((c) => (c.team === undefined ? [] : [c.team])))];
  const teams = await resolveTeams(ctx, opts.teams);
  const caseTeams = new Map<string, string>();
  for (const ref of caseRefs) caseTeams.set(ref, (await resolveTeams(ctx, [ref], 'team of a case'))[0]!);
  for (const c of cases) if (c.team !== undefined) c.team = caseTeams.get(c.team);
  const fetchTeams = opts.live || teams.length > 0;
  let policies: PolicyDoc[] = await loadPolicies(ctx, {
    ...opts,
    files: await policyFiles(opts.files),
    teams: fetchTeams ? [...new Set([...teams, ...caseTeams.values()])] : teams,
  });
  // scopes decide which policies apply to a case's team: names in files are resolved too
  if (caseTeams.size > 0) policies = await resolveScopes(ctx, policies);
  const started = ctx.clock.now();
  const mcp = await mcpDecider(cases.some((c) => c.mcp) ? policies : []);
  const result = runCases(policies, cases, {
    home: ctx.env.HOME,
    baseTeams: opts.live ? teams : null,
    mcp,
  });
  const seconds = (ctx.clock.now() - started) / 1000;
  const coverage = opts.coverage || opts.failUnder !== undefined ? coverageOf(result) : undefined;
  await show(ctx, opts, result, seconds, coverage);
  if (result.undecided > 0) return ExitCode.USAGE;
  if (result.failed > 0) return ExitCode.ERROR;
  if (opts.failUnder !== undefined && coverage && coverage.percent < opts.failUnder) {
    ctx.output.warn(`coverage ${coverage.percent}% is under --fail-under ${opts.failUnder}%`);
    return ExitCode.ERROR;
  }
  return ExitCode.OK;
}

async function show(
  ctx: Context,
  opts: TestOptions,
  result: CaseRun,
  seconds: number,
  coverage: Coverage | undefined,
): Promise<void> {
  const format = ctx.output.json ? 'json' : opts.format;
  if (format === 'json') {
    const cases = result.results.map(caseJson);
    ctx.output.printJson(
      opts.coverage
        ? {
            cases,
            coverage: {
              percent: coverage!.percent,
              matched: coverage!.matched,
              total: coverage!.total,
              rules: coverage!.rules,
              unmatched: coverage!.unmatched,
            },
          }
        : cases,
    );
    return;
  }
  if (format === 'junit' || format === 'tap') {
    const text = format === 'junit' ? junit(result, seconds, coverage) : tap(result, coverage);
    // line by line through the output layer: a control character from a case file is escaped
    for (const l of text.slice(0, -1).split('\n')) ctx.output.line(l);
    return;
  }
  const ok = await ctx.output.style('✓', 'green');
  const bad = await ctx.output.style('✗', 'red');
  for (const r of result.results) {
    if (r.pass) ctx.output.line([ok, ` ${r.case.name}`]);
    else ctx.output.line([bad, ` ${r.case.name} (${where(r)}): ${failureText(r)}`]);
  }
  const undecided = result.undecided > 0 ? ` (${result.undecided} could not be decided)` : '';
  ctx.output.line(`${result.passed} passed, ${result.failed} failed${undecided}`);
  if (coverage && opts.coverage) {
    ctx.output.line(
      `coverage: ${coverage.matched} of ${coverage.total} rules matched (${coverage.percent}%)`,
    );
    const width = String(Math.max(0, ...coverage.rules.map((r) => r.hits))).length;
    for (const r of coverage.rules) {
      const note = r.hits === 0 ? '  (no case matched it)' : '';
      ctx.output.line(`  ${String(r.hits).padStart(width)}  ${ruleText(r)}${note}`);
    }
  }
}
