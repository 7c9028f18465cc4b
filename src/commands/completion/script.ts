import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { type CommandHost, examples } from '../host.js';
import { generateCompletion, type Shell } from './generate.js';

export function register(group: Command, host: CommandHost, runner = run): Command {
  // `hubctl completion <shell>`: the group itself takes the shell, there is no verb.
  group
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
    .action((shell: Shell) => host.run((ctx) => runner(ctx, shell, host)));
  return examples(group, [
    'hubctl completion bash > /etc/bash_completion.d/hubctl',
    'hubctl completion zsh > ~/.zfunc/_hubctl',
    'hubctl completion fish > ~/.config/fish/completions/hubctl.fish',
  ]);
}

export async function run(ctx: Context, shell: Shell, host: CommandHost): Promise<void> {
  // Every group is loaded here: the script must know the whole tree.
  if (!host.tree) throw new Error('completion needs the command tree from its host');
  ctx.io.stdout.write(generateCompletion(await host.tree(), shell));
}
