// Teams named by name or UUID in `policy test` and `policy replay`: resolved to UUIDs (a request only
// when some are names), and the names that policy files may hold in `scope.teams` likewise, so that
// which policies apply to a team is decided on UUIDs, as the service decides it.
import { isTeamUuid } from '../../api/teams.js';
import type { Context } from '../../context.js';
import type { PolicyDoc } from '../../policy/index.js';

/** Team names or UUIDs → UUIDs, in order; the organization's teams are read only for a name. */
export async function resolveTeams(
  ctx: Context,
  refs: readonly string[],
  where = '--team',
): Promise<string[]> {
  if (refs.every(isTeamUuid)) return [...new Set(refs.map((r) => r.toLowerCase()))];
  return (await ctx.teams()).resolve(refs, where);
}

/** The policies with the team names of their scopes resolved to UUIDs (documents with none as they are). */
export async function resolveScopes(ctx: Context, docs: readonly PolicyDoc[]): Promise<PolicyDoc[]> {
  const out: PolicyDoc[] = [];
  for (const d of docs) {
    const teams = d.scope.teams ?? [];
    if (teams.every(isTeamUuid)) {
      out.push(d);
      continue;
    }
    const where = `${d.source}: policy ${JSON.stringify(d.name)} scope.teams`;
    out.push({ ...d, scope: { ...d.scope, teams: await resolveTeams(ctx, teams, where) } });
  }
  return out;
}
