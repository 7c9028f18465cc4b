// Runs hubctl in process with `policy eval` and `policy lint` registered on the policy group, the
// way program.ts registers verbs (same global options, same Context, same error mapping in
// cli.ts's report()). Used until src/commands/policy/index.ts registers the two verbs itself.
import { Readable } from 'node:stream';
import type { Command } from 'commander';
import { report } from '../../../src/cli.js';
import type { CommandHost } from '../../../src/commands/host.js';
import * as evalCmd from '../../../src/commands/policy/eval.js';
import * as lintCmd from '../../../src/commands/policy/lint.js';
import {
  type ContextDeps,
  createContext,
  DEFAULT_GLOBALS,
  type GlobalOptions,
} from '../../../src/context.js';
import { buildProgram, globalsFrom } from '../../../src/program.js';
import { tempConfigDir } from '../../support/run-cli.js';

export interface PolicyCliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runPolicyCli(
  argv: string[],
  options: { stdin?: string; env?: Record<string, string | undefined>; tty?: boolean } = {},
): Promise<PolicyCliResult> {
  let stdout = '';
  let stderr = '';
  const tty = options.tty ?? false;
  const deps: ContextDeps = {
    io: {
      stdout: { write: (s: string) => (stdout += s) },
      stderr: { write: (s: string) => (stderr += s) },
      stdin: Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]),
      stdoutIsTTY: tty,
      stderrIsTTY: tty,
      stdinIsTTY: tty,
      columns: 120,
    },
    env: { HUBCTL_CONFIG_DIR: tempConfigDir(), HOME: tempConfigDir(), NO_COLOR: '1', ...options.env },
    retryBaseMs: 1,
  };
  let code = 0;
  try {
    // `completion` is a light group: the policy group stays a placeholder we fill ourselves.
    const { program } = await buildProgram(deps, ['completion']);
    const policy = program.commands.find((c) => c.name() === 'policy') as Command;
    let globals: GlobalOptions = DEFAULT_GLOBALS;
    program.hook('preAction', (_root, action) => {
      globals = globalsFrom(action.optsWithGlobals());
    });
    const host: CommandHost = {
      async run(body) {
        const result = await body(createContext(deps, globals));
        if (typeof result === 'number') code = result;
      },
    };
    evalCmd.register(policy, host);
    lintCmd.register(policy, host);
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    code = report(err, deps.io, { json: argv.includes('--json'), debug: false });
  }
  return { code, stdout, stderr };
}
