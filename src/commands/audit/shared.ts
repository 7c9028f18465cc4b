// What the audit verbs share: their filter options, the audit API's address and credential, the
// client (paced), and the stderr line that shows progress and waits.
import type { Command } from 'commander';
import type { AuditClient } from '../../api/audit.js';
import type { FilterInput } from '../../audit/query.js';
import type { Credential } from '../../auth/chain.js';
import { baseOf, checkBaseUrl, credentialBinding } from '../../config/values.js';
import type { Context } from '../../context.js';
import { AuthError, UsageError } from '../../errors.js';
import { escapeControl } from '../../output/escape.js';
import { setV8Flag } from '../../v8-flags.js';

export const DEFAULT_AUDIT_URL = 'https://api.docker.com';
/** V8's own interrupt budget (node 20's V8 11.3), in bytes of bytecode run. */
const V8_INTERRUPT_BUDGET = 66 * 1024;

export interface FilterFlags extends FilterInput {
  auditUrl?: string;
  local?: string | boolean;
}

/** The filters every audit verb takes (and --audit-url). */
export function addFilterOptions(cmd: Command, { range = true }: { range?: boolean } = {}): Command {
  cmd
    .option('--user <name>', 'only events of this user (exact)')
    .option(
      '--decision <decision>',
      'allow, deny, approval-required, approval-allow, approval-deny (or AUDIT_DECISION_…)',
    )
    .option('--mode <mode>', 'enforcement mode: audit, warn or enforce')
    .option('--action <type>', 'action type (network_egress, http_request, tool_invocation…)')
    .option('--resource <prefix>', 'resource id prefix, case-insensitive (example.com:443, /home/dev)')
    .option('--agent <name>', 'only events of this agent (exact)')
    .option('--session <id>', 'only events of this audit session')
    .option('--search <text>', 'text search over user, action type, decision and event type (3–256 bytes)');
  if (range)
    cmd
      .option('--from <time>', 'oldest event: RFC 3339, or a duration ago (7d, 36h); inclusive')
      .option('--to <time>', 'newest event: RFC 3339, or a duration ago; inclusive (default now)')
      .option('--since <time>', 'the same as --from');
  return cmd.option(
    '--audit-url <url>',
    `audit API base address (env HUBCTL_AUDIT_URL, profile audit-url; default ${DEFAULT_AUDIT_URL})`,
  );
}

export function filterInput(o: FilterFlags): FilterInput {
  const { auditUrl: _a, local: _l, ...rest } = o;
  return rest;
}

/** `--audit-url` > HUBCTL_AUDIT_URL > profile `audit-url` > https://api.docker.com. */
export async function auditUrl(ctx: Context, flag: string | undefined): Promise<string> {
  if (flag !== undefined) return checkBaseUrl(flag, '--audit-url');
  if (ctx.env.HUBCTL_AUDIT_URL) return checkBaseUrl(ctx.env.HUBCTL_AUDIT_URL, 'HUBCTL_AUDIT_URL');
  const settings = await ctx.settings();
  const { openConfigReader } = await import('../../config/read.js');
  const stored = (openConfigReader(ctx.configDir()).getProfile(settings.profile) as Record<string, string>)[
    'audit-url'
  ];
  if (stored) return checkBaseUrl(stored, `audit-url of profile "${settings.profile}"`);
  return DEFAULT_AUDIT_URL;
}

/** The stderr line: progress redrawn in place on a terminal; notices (waits) on lines of their own. */
export interface StatusLine {
  notice(text: string): void;
  /** Shown only on a terminal, redrawn at most a few times a second. */
  progress(text: () => string): void;
  /** Clears the progress line (before data goes to a terminal, or at the end). */
  clear(): void;
}

export function statusLine(ctx: Context): StatusLine {
  const quiet = ctx.globals.quiet;
  const tty = ctx.io.stderrIsTTY && !quiet;
  let shown = false;
  let last = 0;
  const clear = () => {
    if (shown) ctx.io.stderr.write('\r\u001b[K');
    shown = false;
  };
  return {
    notice(text) {
      if (quiet) return;
      clear();
      ctx.io.stderr.write(`hubctl: ${escapeControl(text)}\n`);
    },
    progress(text) {
      if (!tty) return;
      const now = Date.now();
      if (now - last < 200) return;
      last = now;
      const columns = Math.max(20, (ctx.io.columns ?? 80) - 1);
      ctx.io.stderr.write(`\r\u001b[K${escapeControl(text()).slice(0, columns)}`);
      shown = true;
    },
    clear,
  };
}

/** The audit API's credential for `baseUrl`: HUBCTL_AUDIT_TOKEN, the stored audit token, or the hub's (an OAT). */
export async function auditCredential(
  ctx: Context,
  baseUrl: string,
): Promise<{ secret: string; source: string }> {
  const { resolveAuditCredential } = await import('../../auth/audit-credential.js');
  const settings = await ctx.settings();
  return resolveAuditCredential({
    env: ctx.env,
    stored: async () => {
      const { openConfigReader } = await import('../../config/read.js');
      return storedAuditToken(openConfigReader(ctx.configDir()), settings.profile, baseUrl);
    },
    hub: async () => hubCredentialForAudit(await (await ctx.credentials()).hub(), settings.baseUrl, baseUrl),
  });
}

/** The audit client for the organization, paced, with its credential bound to the audit origin. */
export async function openAuditClient(
  ctx: Context,
  opts: { auditUrl?: string; status: StatusLine },
): Promise<AuditClient> {
  const baseUrl = await auditUrl(ctx, opts.auditUrl);
  const org = await ctx.org();
  const [{ createAuditClient, formatWait }, { Pacer, DEFAULT_PACE, paceFromEnv }] = await Promise.all([
    import('../../api/audit.js'),
    import('../../audit/pacer.js'),
  ]);
  const pace = paceFromEnv(ctx.env.HUBCTL_AUDIT_MAX_RPM) ?? DEFAULT_PACE;
  const credential = await auditCredential(ctx, baseUrl);
  const pacer = new Pacer(ctx.clock, pace, (ms) => {
    opts.status.notice(
      `pacing: this run keeps to ${pace.perMinute} audit requests a minute (the organization shares 100): waiting ${formatWait(ms)}`,
    );
  });
  const http = await ctx.http();
  // Reading pages streams garbage through the young generation, which V8 grows up to 16 MiB a
  // semi-space: that kept an export of 200,000 events ~25 MB higher in resident memory
  // (bench/audit.mjs: 104-110 MB peak; 80-87 MB when the semi-spaces keep their first size). Set
  // through setV8Flag: set behind the code cache's back, it had V8 reject every chunk's cache on
  // the next run (undici's included), compiling them from source again: ~40 ms a run. Set once
  // the HTTP layer is loaded: node's own modules it loads (src/http/liftoff.ts) are checked
  // against the flags too, and those loaded after it were compiled from source, every run.
  setV8Flag('--semi-space-growth-factor=1', '--semi-space-growth-factor=2');
  // A long read calls the same few hundred functions once a page (the HTTP layers, undici, node's
  // streams and timers): V8 compiles each with TurboFan as soon as it has run ~66 KB of bytecode,
  // on a second thread whose CPU is the command's too, ~160 of them in an export of 2,000 pages, a
  // quarter of its instructions (valgrind). Four times that budget leaves those that run a page's
  // worth of code in baseline code and still compiles what runs per event within the first pages
  // (~60 compiles). Cachegrind, the export of bench/audit.mjs: 6.13 G instructions without it,
  // 5.67 G with it; given on node's command line, twice the budget gave 5.93 G, four times 5.91 G,
  // sixteen times 6.37 G (the baseline code then costs more than the compiling saved).
  setV8Flag(`--interrupt-budget=${4 * V8_INTERRUPT_BUDGET}`, `--interrupt-budget=${V8_INTERRUPT_BUDGET}`);
  return createAuditClient({
    http,
    clock: ctx.clock,
    baseUrl,
    org,
    secret: credential.secret,
    pacer,
    signal: ctx.signal,
    notice: (text) => opts.status.notice(text),
  });
}

/** A stored audit token is kept for one profile and one audit origin; another origin never gets it. */
function storedAuditToken(
  reader: {
    auditCredential?(profile: string): { secret?: string; origin?: string; base?: string } | undefined;
  },
  profile: string,
  baseUrl: string,
): { secret: string; source: string } | undefined {
  const entry = reader.auditCredential?.(profile);
  if (!entry?.secret) return undefined;
  // Bound to the origin and base path it was checked against (entries from before: the origin).
  const { boundTo, target } = credentialBinding(entry, baseUrl);
  if (boundTo !== target) {
    throw new UsageError(
      `the stored audit token of profile "${profile}" is for ${boundTo}; hubctl does not send it to ${target}`,
      { hint: 'Drop --audit-url, or store a token for this address with `hubctl auth login --audit`.' },
    );
  }
  return { secret: entry.secret, source: `stored audit token of profile "${profile}"` };
}

/** Docker's own pair: the hub's stored login may go to this audit API, and to no other. */
const DOCKER_HUB_API = 'https://hub.docker.com';

/**
 * The hub credential chain's credential, when the audit API may have it: one given in the
 * environment (HUBCTL_TOKEN) goes where the user points it; a stored or docker CLI login is bound to
 * the hub it was made for, and that hub's audit API is known only for Docker's own pair
 * (hub.docker.com → api.docker.com). Any other pairing needs `auth login --audit` for that address.
 */
function hubCredentialForAudit(
  credential: Credential | undefined,
  hubBaseUrl: string,
  auditBaseUrl: string,
): Credential | undefined {
  if (credential === undefined || credential.store === 'environment') return credential;
  if (baseOf(hubBaseUrl) === DOCKER_HUB_API && baseOf(auditBaseUrl) === DEFAULT_AUDIT_URL) return credential;
  throw new AuthError(
    `the hub credential (${credential.source}) is for ${baseOf(hubBaseUrl)}; hubctl does not send it to the audit API at ${baseOf(auditBaseUrl)}`,
    {
      hint: 'Store an organization access token for that address with `hubctl auth login --audit --audit-url URL`, or set HUBCTL_AUDIT_TOKEN.',
    },
  );
}

/** `--limit`: a whole number, 0 for no limit. */
export function limitOption(value: string): number {
  if (!/^\d{1,9}$/.test(value))
    throw new UsageError(
      `--limit must be a whole number (0 for no limit), not ${JSON.stringify(value.slice(0, 40))}`,
    );
  return Number(value);
}
