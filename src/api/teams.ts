// An organization's teams, which the hub API serves as groups (`/v2/orgs/{org}/groups`): the list
// (Django-style pages whose `next` is followed on the hub's own origin only) and one by name. A
// `TeamDirectory` lets every command take a team by name where the governance API wants its UUID.
import type { HubSession } from '../auth/hub-session.js';
import { ApiError, NotFoundError, UsageError } from '../errors.js';
import { collect, nextPageUrl, paginate } from '../http/paginate.js';
import { readAnswer } from './answer.js';
import { type Team, TeamAnswer, TeamPageAnswer } from './schemas.js';

export type { Team } from './schemas.js';

export interface TeamClient {
  readonly org: string;
  /** Every team, page after page. */
  list(): AsyncGenerator<Team>;
  /** One team by its name. */
  get(name: string): Promise<Team>;
}

/** An organization has a few hundred teams at most; these end an endless chain of pages. */
export const MAX_TEAMS = 10_000;
export const MAX_TEAM_PAGES = 1_000;
const PAGE_SIZE = 100;

export function createTeamClient(session: HubSession, baseUrl: string, org: string): TeamClient {
  const root = `${baseUrl}/v2/orgs/${encodeURIComponent(org)}/groups`;
  return {
    org,
    async *list() {
      const what = `listing the teams of org ${org}`;
      yield* paginate<Team>(
        async (cursor) => {
          const url = cursor ?? `${root}?page=1&page_size=${PAGE_SIZE}`;
          const res = await session.request({ url, what });
          const page = await readAnswer(res, TeamPageAnswer, what);
          return { items: page.results, next: page.next && nextPageUrl(page.next, res.url, what) };
        },
        { host: new URL(root).host, what, maxPages: MAX_TEAM_PAGES, maxItems: MAX_TEAMS },
      );
    },
    async get(name) {
      const what = `reading team "${name}" of org ${org}`;
      try {
        const res = await session.request({ url: `${root}/${encodeURIComponent(name)}`, what });
        return await readAnswer(res, TeamAnswer, what);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) {
          throw new NotFoundError(`no team named ${JSON.stringify(name)} in org ${org}`, {
            hint: 'Run `hubctl team list` to see the teams.',
            cause: err,
          });
        }
        throw err;
      }
    },
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A team UUID (as scope.teams holds them), as opposed to a team's name. */
export function isTeamUuid(ref: string): boolean {
  return UUID.test(ref);
}

/**
 * The teams of one organization for one run: read once when first needed (never kept across runs),
 * then names resolve to UUIDs and UUIDs to names without another request.
 */
export class TeamDirectory {
  #teams?: Promise<Team[]>;

  constructor(private readonly client: TeamClient) {}

  get org(): string {
    return this.client.org;
  }

  teams(): Promise<Team[]> {
    this.#teams ??= collect(this.client.list()).catch((err: unknown) => {
      this.#teams = undefined;
      throw err;
    });
    return this.#teams;
  }

  /**
   * Team names or UUIDs → UUIDs (lower case, duplicates dropped). A UUID is taken as it is, without
   * a request; a name that matches no team, or several, is refused (exit 2) before anything is written.
   */
  async resolve(refs: readonly string[], where = '--team'): Promise<string[]> {
    const out: string[] = [];
    for (const ref of refs) {
      if (isTeamUuid(ref)) {
        out.push(ref.toLowerCase());
        continue;
      }
      const teams = await this.teams();
      let found = teams.filter((t) => t.name === ref);
      if (found.length === 0) found = teams.filter((t) => t.name.toLowerCase() === ref.toLowerCase());
      if (found.length === 0) {
        throw new UsageError(`${where}: no team named ${JSON.stringify(ref)} in org ${this.org}`, {
          hint: 'Run `hubctl team list` to see the teams, or give the team UUID.',
        });
      }
      if (found.length > 1) throw this.#ambiguous(where, ref, found);
      out.push(found[0]!.uuid.toLowerCase());
    }
    return [...new Set(out)];
  }

  /** One team by name: the groups API's own answer, else the one case-insensitive match in the list. */
  async byName(name: string): Promise<Team> {
    try {
      // `.` and `..` would name another path, not a team: those are looked for in the list alone.
      if (name === '.' || name === '..')
        throw new NotFoundError(`no team named ${JSON.stringify(name)} in org ${this.org}`);
      return await this.client.get(name);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      const folded = name.toLowerCase();
      const found = (await this.teams()).filter((t) => t.name.toLowerCase() === folded);
      if (found.length === 0) throw err;
      if (found.length > 1) throw this.#ambiguous('team', name, found);
      return found[0]!;
    }
  }

  #ambiguous(where: string, ref: string, found: Team[]): UsageError {
    return new UsageError(
      `${where}: ${found.length} teams of org ${this.org} match the name ${JSON.stringify(ref)}: ${found
        .map((t) => `${JSON.stringify(t.name)} (${t.uuid})`)
        .join(', ')}`,
      { hint: 'Give the exact name, or the team UUID.' },
    );
  }

  /** UUID (lower case) → name, for every team of the organization. */
  async names(): Promise<Map<string, string>> {
    return new Map((await this.teams()).map((t) => [t.uuid.toLowerCase(), t.name]));
  }
}
