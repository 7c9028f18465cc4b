// `hubctl __complete policies|tokens|teams`: the live names the completion scripts offer (policy
// names after --policy and in a <policy> place, token labels in a <token> place, team names after
// --team and in a <team> place). Hidden. It answers from a cache in the state directory when the
// names are at most 60 s old, asks the hub otherwise (the scripts give it a short HTTP timeout),
// and prints nothing at all when that fails: offline, not logged in, no organization. A
// completion must never print an error into a command line.
import { join } from 'node:path';
import { Argument, type Command } from 'commander';
import type { Context } from '../../context.js';
import { type CommandHost, examples } from '../host.js';

/** The live names `hubctl __complete WHAT` prints (the completion scripts call it). */
export type LiveKind = 'policies' | 'tokens' | 'teams';
export const LIVE_KINDS: readonly LiveKind[] = ['policies', 'tokens', 'teams'];

/** Names are read again after this long. */
export const CACHE_MS = 60_000;
/** The most names offered: a completion menu, not a listing. */
const MAX_NAMES = 1000;
/** The whole answer, cache or network, within this time; else nothing. */
const DEADLINE_MS = 4000;

export function register(group: Command, host: CommandHost, runner = run): Command {
  group
    .addArgument(new Argument('<what>', 'policies, tokens or teams').choices([...LIVE_KINDS]))
    .action((what: LiveKind) => host.run((ctx) => runner(ctx, what)));
  return examples(group, ['hubctl __complete policies']);
}

interface CacheFile {
  [key: string]: { at: number; names: string[] };
}

export async function run(ctx: Context, what: LiveKind): Promise<void> {
  let names: string[] = [];
  try {
    const settings = await ctx.settings();
    const key = JSON.stringify([
      what,
      settings.profile,
      settings.baseUrl,
      what === 'policies' ? settings.org : '',
    ]);
    const file = join(ctx.stateDir(), 'completion-cache.json');
    const cache = await readCache(file);
    const hit = cache[key];
    const now = ctx.clock.now();
    if (hit && now - hit.at >= 0 && now - hit.at <= CACHE_MS) names = hit.names;
    else {
      names = await withDeadline(fetchNames(ctx, what), DEADLINE_MS);
      await writeCache(file, key, { at: now, names }, now);
    }
  } catch {
    // Offline, not logged in, no organization, a deadline passed: no names, and no words.
    return;
  }
  for (const name of names) ctx.output.line(name);
}

async function fetchNames(ctx: Context, what: LiveKind): Promise<string[]> {
  const names: string[] = [];
  if (what === 'policies') {
    for await (const p of (await ctx.governance()).listPolicies()) {
      names.push(p.name);
      if (names.length >= MAX_NAMES) break;
    }
  } else if (what === 'teams') {
    for (const t of await (await ctx.teams()).teams()) {
      names.push(t.name);
      if (names.length >= MAX_NAMES) break;
    }
  } else {
    for await (const t of (await ctx.accessTokens()).listAll(100)) {
      names.push(t.token_label);
      if (names.length >= MAX_NAMES) break;
    }
  }
  // A name with a line break would become two completions: such a name is left out.
  return [...new Set(names.filter((n) => n !== '' && !/[\r\n]/.test(n)))].sort();
}

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('deadline')), ms);
    timer.unref();
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function readCache(file: string): Promise<CacheFile> {
  const { readFile } = await import('node:fs/promises');
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as CacheFile)
      : {};
  } catch {
    return {};
  }
}

/** Changes one entry under the file's lock, dropping the expired ones; written atomically. */
async function writeCache(file: string, key: string, entry: CacheFile[string], now: number): Promise<void> {
  const [{ mkdir }, { withLock }, { writeFileAtomicSync }] = await Promise.all([
    import('node:fs/promises'),
    import('../../files/lock.js'),
    import('../../files/atomic.js'),
  ]);
  const { dirname } = await import('node:path');
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await withLock(
    file,
    async () => {
      const cache = await readCache(file);
      const kept: CacheFile = {};
      for (const [k, v] of Object.entries(cache)) {
        if (v && typeof v.at === 'number' && Array.isArray(v.names) && now - v.at <= CACHE_MS) kept[k] = v;
      }
      kept[key] = entry;
      writeFileAtomicSync(file, `${JSON.stringify(kept)}\n`, 0o600);
    },
    { waitMs: 1000 },
  );
}
