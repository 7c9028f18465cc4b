import type { Command } from 'commander';
import { Option } from 'commander';
import { isDockerHubRegistry } from '../../auth/chain.js';
import { baseOf } from '../../config/values.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { registryBaseUrl } from '../../ref/reference.js';
import { type CommandHost, examples } from '../host.js';
import { dropCachedJwts } from './cached-jwts.js';
import { parseRegistryHost } from './registry-host.js';
import {
  chooseStore,
  hubServerUrl,
  keepSecret,
  registryServerUrl,
  type StoreChoice,
  storeName,
} from './secret-store.js';

export interface LoginOptions {
  /** A registry host; absent for the hub account. */
  registry?: string;
  username?: string;
  passwordStdin: boolean;
  /** Keep the secret in hubctl's 0600 file whatever credential-store says. */
  insecureStorage?: boolean;
  /** Store an organization access token for the audit API instead (`--audit`). */
  audit?: boolean;
  auditUrl?: string;
}

export function register(group: Command, host: CommandHost, runner = run): Command {
  const cmd = group
    .command('login')
    .description('Check a credential and store it: the hub account, or a registry host')
    .argument('[registry-host]', 'a registry (host[:port]) instead of the hub account')
    .option('-u, --username <name>', 'account name (env HUBCTL_USERNAME)')
    .option('--password-stdin', 'read the password or access token from standard input')
    .option('--insecure-storage', "keep the secret in hubctl's own file (mode 0600), not a credential helper")
    .option('--audit', 'store an organization access token for the audit log API (with --org)')
    .option('--audit-url <url>', 'the audit API address the token is for (with --audit)')
    .addOption(new Option('-p, --password <secret>').hideHelp())
    .addOption(new Option('--token <secret>').hideHelp())
    .action(
      (
        registryHost: string | undefined,
        o: {
          username?: string;
          passwordStdin?: boolean;
          insecureStorage?: boolean;
          password?: string;
          token?: string;
          audit?: boolean;
          auditUrl?: string;
        },
      ) => {
        if (o.password !== undefined || o.token !== undefined) {
          throw new UsageError(
            'a secret is never taken as a command-line argument (it would show in ps and shell history)',
            {
              hint: 'Pipe it in with --password-stdin, or run `hubctl auth login` on a terminal to be asked for it.',
            },
          );
        }
        if (o.audit && registryHost !== undefined)
          throw new UsageError('--audit stores a token for the audit log API, not for a registry');
        if (o.auditUrl !== undefined && !o.audit) throw new UsageError('--audit-url goes with --audit');
        const registry = registryHost === undefined ? undefined : parseRegistryHost(registryHost);
        return host.run((ctx) =>
          runner(ctx, {
            registry: registry && isDockerHubRegistry(registry) ? undefined : registry,
            username: o.username,
            passwordStdin: Boolean(o.passwordStdin),
            ...(o.insecureStorage ? { insecureStorage: true } : {}),
            ...(o.audit ? { audit: true, auditUrl: o.auditUrl } : {}),
          }),
        );
      },
    );
  return examples(cmd, [
    'printf %s "$HUB_PAT" | hubctl auth login --username alice --password-stdin',
    'hubctl auth login            # asks for the account and the secret on a terminal',
    'printf %s "$REG_PASS" | hubctl auth login registry.example.com:5000 -u ci --password-stdin',
    'HUBCTL_CREDENTIAL_STORE=pass hubctl auth login -u alice   # the secret goes to docker-credential-pass',
    'printf %s "$AUDIT_OAT" | hubctl --org acme auth login --audit --password-stdin',
  ]);
}

export async function run(ctx: Context, opts: LoginOptions): Promise<void> {
  if (opts.audit) {
    const { loginAudit } = await import('./audit-login.js');
    return loginAudit(ctx, { secret: () => readSecret(ctx, opts.passwordStdin), auditUrl: opts.auditUrl });
  }
  const settings = await ctx.settings();
  let username = opts.username ?? (opts.registry ? undefined : settings.username);
  if (!username) {
    if (!ctx.io.stdinIsTTY || opts.passwordStdin) throw new UsageError('--username is required');
    username = await ctx.prompt.text('Username: ');
    if (!username) throw new UsageError('no account name given');
  }
  const secret = await readSecret(ctx, opts.passwordStdin);
  const store = await ctx.config();
  const http = await ctx.http();

  if (opts.registry) {
    const { verifyRegistryCredential } = await import('../../auth/registry-login.js');
    const credential = { username, secret, source: 'login' };
    await verifyRegistryCredential(http, registryBaseUrl(opts.registry, ctx.globals.plainHttp), credential);
    const choice = await chooseStore(ctx, settings, Boolean(opts.insecureStorage));
    const entry = await keepSecret(ctx, choice, registryServerUrl(opts.registry), username, secret);
    store.setRegistryCredential(opts.registry, entry);
    report(
      ctx,
      { registry: opts.registry, username, stored: storeName(choice, store.credentialsPath) },
      choice,
    );
    return;
  }
  const { exchangeToken } = await import('../../auth/hub-session.js');
  // Verified by a real exchange before anything is stored.
  await exchangeToken(http, settings.baseUrl, { username, secret, source: 'login' });
  const choice = await chooseStore(ctx, settings, Boolean(opts.insecureStorage));
  const serverUrl = hubServerUrl(settings.baseUrl, settings.profile);
  const entry = await keepSecret(ctx, choice, serverUrl, username, secret);
  store.setHubCredential(settings.profile, {
    ...entry,
    origin: new URL(settings.baseUrl).origin,
    base: baseOf(settings.baseUrl),
  });
  // A JWT of the credential this one replaces is not kept.
  await dropCachedJwts(store, settings.profile);
  if (!store.getProfile(settings.profile).username) store.set(settings.profile, 'username', username);
  report(
    ctx,
    { profile: settings.profile, username, stored: storeName(choice, store.credentialsPath) },
    choice,
  );
}

function report(
  ctx: Context,
  result: { username: string; stored: string; profile?: string; registry?: string },
  choice: StoreChoice,
): void {
  if (ctx.output.json) {
    ctx.output.printJson({ loggedIn: true, ...result, store: choice.helper ?? 'file' });
    return;
  }
  const where = result.registry ? ` to ${result.registry}` : '';
  const why = choice.helper ? `, chosen by ${choice.why}` : '';
  ctx.output.info(`Logged in${where} as ${result.username} (credential stored in ${result.stored}${why}).`);
  if (choice.note) ctx.output.info(choice.note);
}

async function readSecret(ctx: Context, fromStdin: boolean): Promise<string> {
  let secret: string;
  if (fromStdin) {
    secret = (await ctx.readStdin()).replace(/\r?\n$/, '');
  } else if (ctx.io.stdinIsTTY) {
    secret = await ctx.prompt.secret('Password or access token: ');
  } else {
    throw new UsageError('no secret given', {
      hint: 'Standard input is not a terminal: pipe the secret in and pass --password-stdin.',
    });
  }
  if (secret === '') throw new UsageError('the secret is empty');
  return secret;
}
