// Where `policy eval` and `policy lint` get their policies: files (-f, YAML or JSON), policies
// fetched live by id or name, or every policy that applies to some teams in the organization. Only
// the live paths touch the governance client (and so undici, the config store and credentials).
import { closeSync, readSync } from 'node:fs';
import type { Context } from '../../context.js';
import { UsageError, ValidationError } from '../../errors.js';
import { openInputSync } from '../../files/regular.js';
import {
  applicablePolicies,
  decodePolicyText,
  type PolicyDoc,
  parsePolicyDocument,
  policyDocFromApi,
  policyType,
} from '../../policy/index.js';

export interface PolicySources {
  files: string[];
  /** Ids or names of policies to fetch. */
  policies: string[];
  /** Team names or UUIDs: every org-wide policy plus those scoped to these teams. */
  teams: string[];
  /** Fetch every policy that applies (org-wide, plus `teams`) when nothing else is named. */
  live: boolean;
}

/** Past this, a policy file is refused by the parser; no more than one byte over it is read. */
const MAX_POLICY_FILE_BYTES = 16 * 1024 * 1024;

/**
 * A policy file's text, of at most `cap` bytes and one more (the caller names a file over its cap).
 * A FIFO, a device or a pipe is refused (issue 20: a FIFO without a writer blocked for ever). Read synchronously: node:fs/promises would load node's readline
 * and stream modules, a tenth of `policy eval`'s start-up (bench/startup.mjs).
 */
export function readPolicyText(path: string, cap = MAX_POLICY_FILE_BYTES): string {
  // A regular file only: a FIFO (or a device) would block, or never end.
  const fd = openInputSync(path, 'policy file', (err) => cannotRead(path, err));
  let bytes: Buffer;
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    while (total <= cap) {
      const chunk = Buffer.allocUnsafe(Math.min(cap + 1 - total, 1024 * 1024));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
    }
    bytes = Buffer.concat(chunks, total);
  } catch (err) {
    throw cannotRead(path, err);
  } finally {
    closeSync(fd);
  }
  // invalid UTF-8 is refused with its line, not read on as U+FFFD
  return decodePolicyText(bytes, path);
}

function cannotRead(path: string, err: unknown): UsageError {
  const code = (err as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EISDIR'
        ? 'it is a directory'
        : code === 'EACCES'
          ? 'permission denied'
          : String(code ?? err);
  return new UsageError(`cannot read policy file ${path}: ${why}`);
}

/** The texts of policy files as read, by file name (where a Cedar text stands in its file). */
export type { PolicyTexts } from './cedar-sources.js';

import type { PolicyTexts } from './cedar-sources.js';

/**
 * A policy file: YAML or JSON, or a raw Cedar text (`.cedar`: one cedar_v1 policy named after the
 * file, for the MCP schema).
 */
export async function readPolicyFile(path: string, texts?: PolicyTexts): Promise<PolicyDoc[]> {
  const text = readPolicyText(path);
  texts?.set(path, text);
  if (/\.cedar$/i.test(path)) {
    if (text.length > MAX_POLICY_FILE_BYTES) {
      throw new UsageError(`${path} is larger than ${MAX_POLICY_FILE_BYTES / 1024 / 1024} MiB`);
    }
    // loaded only for Cedar: the policy engine's Cedar part stays out of `policy eval`'s start-up
    return [(await import('./cedar-sources.js')).rawCedarDoc(path, text)];
  }
  return parsePolicyDocument(text, path);
}

/** Loads every named source, files first, in the order given (file texts into `texts`, if given). */
export async function loadPolicies(
  ctx: Context,
  src: PolicySources,
  texts?: PolicyTexts,
): Promise<PolicyDoc[]> {
  const out: PolicyDoc[] = [];
  for (const f of src.files) out.push(...(await readPolicyFile(f, texts)));
  if (src.policies.length === 0 && src.teams.length === 0 && !src.live) return out;

  const client = await ctx.governance();
  const { fetchPolicy } = await import('./resolve.js');
  for (const ref of src.policies) {
    const { policy } = await fetchPolicy(client, ref);
    const type = policyType(policy);
    if (type !== 'allowlist_v0' && type !== 'cedar_v1') {
      throw new ValidationError(
        `policy "${policy.name}" (${policy.id}) is a ${type} policy; hubctl evaluates allowlist_v0 and cedar_v1 policies only`,
      );
    }
    out.push(policyDocFromApi(policy, `policy ${policy.id}`));
  }
  if (src.teams.length > 0 || src.live) {
    const teams = src.teams.length > 0 ? await (await ctx.teams()).resolve(src.teams) : [];
    const summaries = applicablePolicies(await client.allPolicies(), teams);
    for (const s of summaries) {
      const type = policyType(s);
      if (type !== 'allowlist_v0' && type !== 'cedar_v1') {
        out.push({
          id: s.id,
          name: s.name,
          source: `policy ${s.id}`,
          type,
          scope: s.scope ?? {},
          rules: [],
          notEvaluated: `it is a ${type} policy; hubctl evaluates allowlist_v0 only`,
        });
        continue;
      }
      out.push(policyDocFromApi(await client.getPolicy(s.id), `policy ${s.id}`));
    }
  }
  return out;
}
