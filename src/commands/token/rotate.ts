import type { Command } from 'commander';
import type { RotationResult } from '../../api/rotate-token.js';
import type { Context } from '../../context.js';
import { type CommandHost, examples } from '../host.js';
import { resolveToken } from './resolve.js';
import { checkTokenRef, parseExpiry } from './values.js';

export interface RotateOptions {
  /** UUID or unique label. */
  token: string;
  expires?: string;
  deleteOld: boolean;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('rotate')
    .description(
      'Replace a token: create a successor with the same scopes, verify it, then deactivate the old one; ' +
        'the new secret is printed once, on stdout',
    )
    .argument('<token>', 'token UUID, or its label when that is unique')
    .option('--expires <when>', "the successor's expiry (30d, 2027-01-31); default: the old token's lifetime")
    .option('--delete-old', 'delete the old token instead of deactivating it')
    .action((token: string, o: { expires?: string; deleteOld?: boolean }) => {
      if (o.expires !== undefined) parseExpiry(o.expires, Date.now());
      const opts = { token: checkTokenRef(token), expires: o.expires, deleteOld: Boolean(o.deleteOld) };
      return host.run((ctx) => runner(ctx, opts));
    });
  return examples(cmd, [
    'NEW=$(hubctl token rotate ci-deploy -q)',
    'hubctl token rotate 3f2b8c1e-6d4a-4e0b-9a57-1c2d3e4f5a6b --expires 90d --delete-old --json',
  ]);
}

export async function run(ctx: Context, opts: RotateOptions): Promise<void> {
  const expiresAt = opts.expires === undefined ? undefined : parseExpiry(opts.expires, ctx.clock.now());
  const client = await ctx.accessTokens();
  const session = await ctx.hubSession();
  const { exchangeToken } = await import('../../auth/hub-session.js');
  const { rotateToken } = await import('../../api/rotate-token.js');
  const old = await resolveToken(client, opts.token);
  const { username } = await session.credential();
  const http = await ctx.http();
  const { baseUrl } = await ctx.settings();
  const result = await rotateToken(
    {
      client,
      // A real exchange, as the pipeline will make it; its JWT is not kept.
      verify: async (secret) => {
        await exchangeToken(http, baseUrl, { username, secret, source: 'the rotated token' });
      },
      now: ctx.clock.now(),
    },
    old,
    { expiresAt, deleteOld: opts.deleteOld },
  );
  report(ctx, result);
  if (result.error) throw result.error;
}

function report(ctx: Context, result: RotationResult): void {
  const { old, created, steps } = result;
  const rotated = result.error === undefined;
  if (ctx.output.json) {
    ctx.output.printJson({
      rotated,
      old: { uuid: old.uuid, token_label: old.token_label },
      // The secret only when the rotation is complete, exactly as `token create --json` shows it.
      new: created ?? null,
      steps,
      // What the run left behind, and what to run when it could not finish (issue 20).
      old_state: result.oldState,
      ...(result.newActive ? { new_active: result.newActive } : {}),
      todo: result.todo,
    });
    return;
  }
  if (rotated && created?.token) {
    // The secret alone on stdout, so `$(hubctl token rotate …)` captures exactly it.
    ctx.output.line(created.token);
  }
  for (const s of steps) ctx.output.warn(`${s.ok ? 'done' : 'FAILED'}  ${s.step}: ${s.detail}`);
  if (rotated) {
    ctx.output.warn(
      `Rotated "${old.token_label}": use "${created?.token_label}" (${created?.uuid}). ` +
        'This is the only time its secret is shown: store it now.',
    );
  } else {
    const failed = steps.find((s) => !s.ok)?.step;
    ctx.output.warn(`Rotation stopped at ${failed}; ${leftBehind(result)}`);
    for (const command of result.todo) ctx.output.warn(`  run: ${command}`);
  }
}

/** One sentence: the state of both tokens as the stopped rotation leaves them. */
function leftBehind(result: RotationResult): string {
  const { old, newActive } = result;
  const name = `"${old.token_label}" (${old.uuid})`;
  const oldPart =
    result.oldState === 'active'
      ? `${name} stays in use`
      : `the state of ${name} is unknown (it may no longer work)`;
  const newPart =
    newActive === undefined
      ? ''
      : newActive.length === 0
        ? '; a new token may have been made and left active'
        : `; the new token${newActive.length > 1 ? 's' : ''} ${newActive.join(', ')} ${newActive.length > 1 ? 'are' : 'is'} still active, its secret never shown`;
  return `${oldPart}${newPart}.`;
}
