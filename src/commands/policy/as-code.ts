// What `policy export`, `diff` and `apply` share: reading the authored files (-f FILE|DIR, 400 KB
// in all) and fetching the organization's policies whole (list, then each policy, a few at a time).
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { GovernanceClient } from '../../api/governance.js';
import { isTeamUuid } from '../../api/teams.js';
import type { Context } from '../../context.js';
import { UsageError, ValidationError } from '../../errors.js';
import {
  type AuthoredPolicy,
  authoredFromDoc,
  checkAuthored,
  type LivePolicy,
  liveFromDoc,
  parsePolicyDocument,
  policyDocFromApi,
} from '../../policy/index.js';
import { runPool } from '../../pool.js';
import { readPolicyText } from './sources.js';

/** The files of one apply, together (issue 14: 400 KB). */
export const MAX_INPUT_BYTES = 400 * 1024;
const POLICY_FILE = /\.(ya?ml|json)$/i;

/** The policy files named: files as given, directories' *.yaml, *.yml and *.json (sorted, not recursive). */
export async function policyFiles(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    let isDir: boolean;
    try {
      isDir = (await stat(p)).isDirectory();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new UsageError(
        `cannot read ${p}: ${code === 'ENOENT' ? 'no such file or directory' : String(code ?? err)}`,
      );
    }
    if (!isDir) {
      out.push(p);
      continue;
    }
    const names = (await readdir(p)).filter((n) => POLICY_FILE.test(n)).sort();
    if (names.length === 0) throw new UsageError(`${p} holds no policy file (*.yaml, *.yml, *.json)`);
    out.push(...names.map((n) => join(p, n)));
  }
  return out;
}

/** Reads and checks every authored policy; nothing is sent before this succeeds. */
export async function readAuthored(
  paths: readonly string[],
  texts?: Map<string, string>,
): Promise<AuthoredPolicy[]> {
  if (paths.length === 0) throw new UsageError('name the policy files with -f FILE|DIR');
  const files = await policyFiles(paths);
  let total = 0;
  const out: AuthoredPolicy[] = [];
  for (const f of files) {
    const text = readPolicyText(f, MAX_INPUT_BYTES);
    texts?.set(f, text);
    total += Buffer.byteLength(text);
    if (total > MAX_INPUT_BYTES) {
      throw new ValidationError(
        `the policy files are over ${MAX_INPUT_BYTES / 1024} KB together (at ${f}); an organization's policies fit well within that`,
      );
    }
    for (const doc of await parsePolicyDocument(text, f)) out.push(authoredFromDoc(doc));
  }
  // the limits the files alone pass are invalid input, found before the first request
  checkAuthored(out);
  return out;
}

/**
 * Team names in the files' `scope.teams` → UUIDs, so that files can name teams as people do. The
 * teams are read once, and only when a file names one; an unknown or ambiguous name is exit 2,
 * before any write.
 */
export async function resolveScopes(ctx: Context, authored: AuthoredPolicy[]): Promise<AuthoredPolicy[]> {
  const named = (p: AuthoredPolicy) => (p.scope.teams ?? []).some((t) => !isTeamUuid(t));
  if (!authored.some(named)) return authored;
  const directory = await ctx.teams();
  const out: AuthoredPolicy[] = [];
  for (const p of authored) {
    if (!named(p)) {
      out.push(p);
      continue;
    }
    const where = `${p.source}: policy ${shown(p.name)} scope.teams`;
    const teams = (await directory.resolve(p.scope.teams ?? [], where)).sort();
    out.push({ ...p, scope: teams.length === 0 ? {} : { teams } });
  }
  return out;
}

/** Every policy of the organization, whole, sorted by name; at most `concurrency` reads at once. */
export async function fetchLive(client: GovernanceClient, concurrency: number): Promise<LivePolicy[]> {
  const summaries = await client.allPolicies();
  const policies = await runPool(summaries, concurrency, (s) => client.getPolicy(s.id));
  return policies
    .map((p) => liveFromDoc({ ...policyDocFromApi(p), id: p.id }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A name or text from a file or the server, quoted with control characters escaped (terminal safety). */
export function shown(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\u009f\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
