// The commander tree and the global options; no logic. Command groups are loaded on demand: only
// the group named on the command line is imported (its chunk), so `--version` and `--help` stay cheap.
import { Command } from 'commander';
import type { CommandHost } from './commands/host.js';
import { addOptions } from './commands/option-table.js';
import type { ContextDeps } from './context.js';
import { GLOBAL_OPTIONS, GLOBAL_VALUE_OPTIONS, globalsFrom } from './global-options.js';
import { DEFAULT_GLOBALS, type GlobalOptions } from './globals.js';
import { EXIT_CODES_SHORT } from './help-topics.js';
import { VERSION } from './version.js';

export interface CommandGroup {
  name: string;
  description: string;
  /** Left out of the help and the completion scripts (`__complete`, which the scripts call). */
  hidden?: boolean;
  /** Imports the group's chunk; its register() adds the verbs to the group's command. */
  load: () => Promise<{ register(group: Command, host: CommandHost): void }>;
}

export const GROUPS: CommandGroup[] = [
  {
    name: 'policy',
    description: 'List, inspect, change and evaluate governance policies',
    load: () => import('./commands/policy/index.js'),
  },
  {
    name: 'rule',
    description: 'Add, change and remove the rules of a policy',
    load: () => import('./commands/rule/index.js'),
  },
  {
    name: 'team',
    description: 'List the teams of the organization (names for --team and scope.teams)',
    load: () => import('./commands/team/index.js'),
  },
  {
    name: 'token',
    description: 'Manage personal access tokens',
    load: () => import('./commands/token/index.js'),
  },
  {
    name: 'image',
    description: 'Inspect, pull, push, copy and delete images in OCI registries',
    load: () => import('./commands/image/index.js'),
  },
  {
    name: 'engine',
    description: 'Show the local container engine: API version negotiated, registry settings',
    load: () => import('./commands/engine/index.js'),
  },
  {
    name: 'audit',
    description: 'Read the audit log: what the policies allowed and denied (API or local files)',
    load: () => import('./commands/audit/index.js'),
  },
  {
    name: 'auth',
    description: 'Log in and out, and show who you are',
    load: () => import('./commands/auth/index.js'),
  },
  {
    name: 'config',
    description: 'Read and change settings of a profile',
    load: () => import('./commands/config/index.js'),
  },
  {
    name: 'completion',
    description: 'Print a shell completion script (bash, zsh, fish)',
    load: () => import('./commands/completion/index.js'),
  },
  {
    name: 'api',
    description: 'Send a request to the hub, governance, audit or a registry API (the escape hatch)',
    load: () => import('./commands/api/index.js'),
  },
  {
    name: '__complete',
    description: 'Print live names for shell completion (policies, tokens); silent when offline',
    hidden: true,
    load: () => import('./commands/complete/index.js'),
  },
  {
    name: 'version',
    description: "Show hubctl's version, node's and the platform",
    load: () => import('./commands/version/index.js'),
  },
];

/** The group named on the command line (`hubctl --org x token list` → token), if any. */
export function groupFromArgv(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return undefined;
    if (GLOBAL_VALUE_OPTIONS.has(arg)) {
      i++;
      continue;
    }
    if (arg.startsWith('-')) continue;
    if (arg === 'help') return argv[i + 1];
    return arg;
  }
  return undefined;
}

export interface ProgramState {
  exitCode: number;
  globals: GlobalOptions;
}

/**
 * Builds the program. `load` says which groups get their verbs: 'argv' (the one named in argv),
 * or 'all' (completion scripts and tree tests need every command).
 */
export async function buildProgram(
  deps: ContextDeps,
  argv: string[],
  load: 'argv' | 'all' = 'argv',
): Promise<{ program: Command; state: ProgramState }> {
  const state: ProgramState = { exitCode: 0, globals: DEFAULT_GLOBALS };
  const program = new Command('hubctl')
    .description('Administer sandbox governance policies, access tokens and OCI images.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help');
  addOptions(program, GLOBAL_OPTIONS)
    .showHelpAfterError(false)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => deps.io.stdout.write(s),
      writeErr: (s) => deps.io.stderr.write(s),
      // Errors are printed once, by cli.ts, in the user's chosen format.
      outputError: () => undefined,
    })
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ hubctl policy eval connect:tcp api.github.com:443 -f examples/network.yaml',
        '  $ printf %s "$HUB_PAT" | hubctl auth login --username alice --password-stdin',
        '  $ hubctl --org acme policy list --json',
        '  $ hubctl image inspect alpine:3.20',
        '',
        EXIT_CODES_SHORT,
        '',
      ].join('\n'),
    );

  program.hook('preAction', (_root, action) => {
    state.globals = globalsFrom(action.optsWithGlobals());
  });

  const host: CommandHost = {
    async run(body) {
      // Loaded when a command runs, not for --help.
      const { openContext } = await import('./context.js');
      const ctx = await openContext(deps, state.globals);
      const code = await body(ctx);
      if (typeof code === 'number') state.exitCode = code;
    },
    tree: async () => (await buildProgram(deps, [], 'all')).program,
  };

  const wanted = load === 'all' ? undefined : groupFromArgv(argv);
  for (const group of GROUPS) {
    const command = program
      .command(group.name, { hidden: group.hidden ?? false })
      .description(group.description);
    // Unnamed groups stay placeholders: listed in `hubctl --help`, their code not loaded.
    if (load === 'all' || group.name === wanted) (await group.load()).register(command, host);
  }
  return { program, state };
}

/** Every command of the tree with its full path, for completions and tree tests. */
export function walkCommands(cmd: Command, path: string[] = []): { path: string[]; command: Command }[] {
  const out: { path: string[]; command: Command }[] = [];
  for (const sub of cmd.commands) {
    const p = [...path, sub.name()];
    out.push({ path: p, command: sub }, ...walkCommands(sub, p));
  }
  return out;
}

/**
 * Commander's top-level help at a given width, as `hubctl --help` prints it (the examples and exit
 * codes after it included); the build writes it to dist/help.json (src/help-text.ts).
 */
export async function topLevelHelp(width: number): Promise<string> {
  const quiet = { write: () => true };
  const io = { stdout: quiet, stderr: quiet, stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false };
  const { program } = await buildProgram({ io, env: {} } as unknown as ContextDeps, []);
  let text = '';
  program
    .configureOutput({
      getOutHelpWidth: () => width,
      writeOut: (s) => {
        text += s;
      },
    })
    .outputHelp();
  return text;
}

/** `hubctl help X` where X is neither a topic (src/cli.ts answers those) nor a command. */
export function unknownHelpTopic(program: Command, argv: string[]): string | undefined {
  if (argv[0] !== 'help' || argv.length < 2) return undefined;
  const name = argv[1]!;
  if (program.commands.some((c) => c.name() === name || c.aliases().includes(name))) return undefined;
  return name;
}
