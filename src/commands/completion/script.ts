import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { type CommandHost, examples } from '../host.js';
import { generateCompletion, type Shell } from './generate.js';

export function register(group: Command, host: CommandHost, runner = run): Command {
  // `hubctl completion <shell>`: the group itself takes the shell, there is no verb.
  group
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
    .action((shell: Shell) => host.run((ctx) => runner(ctx, shell)));
  return examples(group, [
    'hubctl completion bash > /etc/bash_completion.d/hubctl',
    'hubctl completion zsh > ~/.zfunc/_hubctl',
    'hubctl completion fish > ~/.config/fish/completions/hubctl.fish',
  ]);
}

export async function run(ctx: Context, shell: Shell): Promise<void> {
  const { buildProgram } = await import('../../program.js');
  // Every group is loaded here: the script must know the whole tree.
  const { program } = await buildProgram({ io: ctx.io, env: ctx.env }, [], 'all');
  ctx.io.stdout.write(generateCompletion(program, shell));
}
