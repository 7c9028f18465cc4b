// `hubctl policy suggest EVENTS… [--min-count N] [--name NAME]`: allow rules proposed from recorded
// denials, as a policy file in the authoring form (stdout), for a person to review; then
// `policy lint -f`, `policy test`, `policy replay` and `policy apply -f` read it.
import type { Command } from 'commander';
import { Suggester, suggestionYaml } from '../../audit/suggest.js';
import type { Context } from '../../context.js';
import { ExitCode, UsageError } from '../../errors.js';
import { type CommandHost, examples, positiveInt } from '../host.js';
import { EventFiles } from './event-files.js';

export interface SuggestOptions {
  events: string[];
  minCount: number;
  name: string;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('suggest')
    .description('Propose allow rules from denied audit events, as a policy file to review (stdout)')
    .argument('<events...>', 'audit events as NDJSON (audit export, or local audit files); - for stdin')
    .option(
      '--min-count <n>',
      'propose only rules covering at least N denied events (default 1)',
      positiveInt('--min-count'),
    )
    .option('--name <name>', 'name of the proposed policy (default "suggested-allows")')
    .action((events: string[], raw: { minCount?: number; name?: string }) => {
      const name = raw.name ?? 'suggested-allows';
      if (name.trim() === '' || name.length > 200 || /[\u0000-\u001f\u007f]/.test(name)) {
        throw new UsageError('--name must be 1 to 200 characters, without control characters');
      }
      if (events.filter((e) => e === '-').length > 1) throw new UsageError('- (stdin) can be named once');
      return host.run((ctx) => runner(ctx, { events, minCount: raw.minCount ?? 1, name }));
    });
  return examples(cmd, [
    'hubctl policy suggest events.ndjson --min-count 5 > suggested.yaml',
    'hubctl policy lint -f suggested.yaml && hubctl policy replay events.ndjson -f policies/ -f suggested.yaml --org acme',
    'hubctl audit export --local | hubctl policy suggest - --name dev-allows',
  ]);
}

export async function run(ctx: Context, opts: SuggestOptions): Promise<number> {
  const files = EventFiles.open(opts.events);
  try {
    const suggester = new Suggester();
    await files.readLines(ctx, () => ({
      line: (text) => suggester.line(text),
      tooLong: () => suggester.tooLong(),
    }));
    const s = suggester.suggest(opts.minCount);
    if (ctx.output.json) {
      ctx.output.printJson({
        policy: {
          name: opts.name,
          rules: s.rules.map((r) => ({
            name: r.name,
            actions: [r.action],
            decision: 'allow',
            resources: r.resources,
          })),
        },
        rules: s.rules.map((r) => ({
          name: r.name,
          events: r.count,
          users: r.users,
          destinations: r.destinations,
        })),
        denials: s.denials,
        not_proposed: s.notProposed,
        skipped: s.skipped,
      });
      return ExitCode.OK;
    }
    for (const line of suggestionYaml(s, opts.name).slice(0, -1).split('\n')) ctx.output.line(line);
    const events = s.rules.reduce((a, r) => a + r.count, 0);
    ctx.output.info(
      `${s.rules.length} rule${s.rules.length === 1 ? '' : 's'} proposed, covering ${events} of ${s.denials} denied network event${s.denials === 1 ? '' : 's'}`,
    );
    return ExitCode.OK;
  } finally {
    files.close();
  }
}
