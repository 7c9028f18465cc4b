// `hubctl policy suggest EVENTS… [--min-count N] [--name NAME]`: allow rules proposed from recorded
// denials, as a policy file in the authoring form (stdout), for a person to review; then
// `policy lint -f`, `policy test`, `policy replay` and `policy apply -f` read it.
import { closeSync, createReadStream, openSync } from 'node:fs';
import type { Command } from 'commander';
import { LineSplitter } from '../../audit/lines.js';
import { Suggester, suggestionYaml } from '../../audit/suggest.js';
import type { Context } from '../../context.js';
import { ExitCode, UsageError } from '../../errors.js';
import { type CommandHost, examples, positiveInt } from '../host.js';
import { MAX_EVENT_LINE } from './replay.js';

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
    'cat ~/.local/state/sandboxes/sandboxes/auditkit/*.jsonl | hubctl policy suggest - --name dev-allows',
  ]);
}

function cannotRead(path: string, err: unknown): UsageError {
  const code = (err as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : String(code ?? err);
  return new UsageError(`cannot read events file ${path}: ${why}`);
}

export async function run(ctx: Context, opts: SuggestOptions): Promise<number> {
  const fds = new Map<string, number>();
  try {
    for (const path of opts.events) {
      if (path === '-' || fds.has(path)) continue;
      try {
        fds.set(path, openSync(path, 'r'));
      } catch (err) {
        throw cannotRead(path, err);
      }
    }
    const suggester = new Suggester();
    for (const path of opts.events) {
      const splitter = new LineSplitter(
        { line: (text) => suggester.line(text), tooLong: () => suggester.tooLong() },
        MAX_EVENT_LINE,
      );
      const source =
        path === '-'
          ? ctx.io.stdin
          : createReadStream('', { fd: fds.get(path)!, highWaterMark: 1024 * 1024, autoClose: false });
      try {
        for await (const chunk of source)
          splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
      } catch (err) {
        throw cannotRead(path, err);
      }
      splitter.end();
    }
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
    for (const fd of fds.values()) closeSync(fd);
  }
}
