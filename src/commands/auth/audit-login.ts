// `auth login --audit`: stores an organization access token for the audit API (audit-and-mcp.md
// §1), for the profile and bound to the audit API's origin. Read from standard input or a prompt,
// never from argv; refused before anything is sent when it is plainly not an OAT; verified by
// reading one event of the organization's audit log before it is stored.
import { Pacer } from '../../audit/pacer.js';
import { isOrganizationToken, resolveAuditCredential } from '../../auth/audit-credential.js';
import { baseOf } from '../../config/values.js';
import type { Context } from '../../context.js';
import { auditUrl, statusLine } from '../audit/shared.js';

export async function loginAudit(
  ctx: Context,
  opts: { secret: () => Promise<string>; auditUrl?: string },
): Promise<void> {
  const baseUrl = await auditUrl(ctx, opts.auditUrl);
  const org = await ctx.org();
  const secret = await opts.secret();
  // The same refusal as every other source: a PAT, a JWT or a password never reaches the server.
  if (!isOrganizationToken(secret))
    await resolveAuditCredential({
      env: { HUBCTL_AUDIT_TOKEN: secret },
      stored: async () => undefined,
      hub: async () => undefined,
    });
  const { createAuditClient } = await import('../../api/audit.js');
  const status = statusLine(ctx);
  const client = createAuditClient({
    http: await ctx.http(),
    clock: ctx.clock,
    baseUrl,
    org,
    secret,
    pacer: new Pacer(ctx.clock, { perMinute: 5, perHour: 50 }),
    signal: ctx.signal,
    notice: (text) => status.notice(text),
  });
  await client.page({ page_size: '1' });
  const settings = await ctx.settings();
  const store = await ctx.config();
  const origin = new URL(baseUrl).origin;
  store.setAuditCredential(settings.profile, { username: org, secret, origin, base: baseOf(baseUrl) });
  if (ctx.output.json) {
    ctx.output.printJson({
      loggedIn: true,
      audit: true,
      profile: settings.profile,
      org,
      origin,
      store: 'file',
    });
    return;
  }
  ctx.output.info(
    `Stored the audit log token of ${org} for ${origin} (profile "${settings.profile}", in ${store.credentialsPath}).`,
  );
}
