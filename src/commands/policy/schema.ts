// `hubctl policy schema`: the JSON Schema of the authoring form, for editors (README: the
// yaml-language-server modeline). `hubctl policy schema mcp`: the Cedar schema of MCP policies that
// hubctl checks and evaluates cedar_v1 policies against (Cedar schema syntax; `--json` its JSON form).
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { AUTHORING_SCHEMA, loadCedar, MCP_SCHEMA_TEXT, mcpSchemaJson } from '../../policy/index.js';
import { type CommandHost, examples } from '../host.js';

export type SchemaKind = 'authoring' | 'mcp';

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('schema')
    .description(
      'Print the JSON Schema of policy files (for editors), or with `mcp` the Cedar schema of MCP policies',
    )
    .argument('[kind]', '`mcp`: the Cedar schema of cedar_v1 (MCP) policies, written from the documentation')
    .action((kind: string | undefined) => {
      if (kind !== undefined && kind !== 'mcp') {
        throw new UsageError(`unknown schema "${kind}"; give none (policy files) or mcp (Cedar)`);
      }
      const which: SchemaKind = kind === 'mcp' ? 'mcp' : 'authoring';
      return host.run((ctx) => runner(ctx, which));
    });
  return examples(cmd, [
    'hubctl policy schema > policy.schema.json',
    'hubctl policy schema mcp > mcp.cedarschema',
    'hubctl policy schema mcp --json > mcp.cedarschema.json',
  ]);
}

export async function run(ctx: Context, kind: SchemaKind = 'authoring'): Promise<void> {
  if (kind === 'authoring') {
    ctx.output.printJson(AUTHORING_SCHEMA);
    return;
  }
  if (ctx.output.json) {
    ctx.output.printJson(mcpSchemaJson(await loadCedar()));
    return;
  }
  for (const line of MCP_SCHEMA_TEXT.replace(/\n$/, '').split('\n')) ctx.output.line(line);
}
