// `hubctl policy schema`: the JSON Schema of the authoring form, for editors (README: the
// yaml-language-server modeline).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { AUTHORING_SCHEMA } from '../../policy/index.js';
import { type CommandHost, examples } from '../host.js';

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('schema')
    .description('Print the JSON Schema of policy files (for editors)')
    .action(() => host.run((ctx) => runner(ctx)));
  return examples(cmd, ['hubctl policy schema > policy.schema.json']);
}

export async function run(ctx: Context): Promise<void> {
  ctx.output.printJson(AUTHORING_SCHEMA);
}
