// Token rotation in the order of issue 15: create the successor (same scopes, derived label),
// verify its secret by a real exchange, then deactivate (or delete) the old token. Any failure
// leaves the old token active, and a successor that was created is deactivated again, so no new
// active secret is left behind that nobody has seen. Every step is recorded for the report.
import type { AccessToken, AccessTokenClient } from './access-tokens.js';

export type StepName = 'create' | 'verify' | 'deactivate-old' | 'delete-old' | 'deactivate-new';

export interface RotationStep {
  step: StepName;
  ok: boolean;
  /** What happened, in words (no secret). */
  detail: string;
}

export interface RotationResult {
  old: AccessToken;
  /** The successor, with its secret only when the rotation succeeded. */
  created?: AccessToken;
  steps: RotationStep[];
  /** The error of the failed step; undefined when the rotation is complete. */
  error?: unknown;
}

export interface RotationDeps {
  client: AccessTokenClient;
  /** Exchanges the new secret for a JWT; throws when the hub refuses it. */
  verify(secret: string): Promise<void>;
  now: number;
}

export interface RotationOptions {
  /** ISO instant; null for never; undefined: keep the old token's lifetime (or never). */
  expiresAt?: string | null;
  deleteOld: boolean;
}

const MAX_LABEL = 100;
const ROTATED = / \(rotated \d{4}-\d\d-\d\d(?: \d\d:\d\d)?\)$/;

/**
 * "ci-deploy" → "ci-deploy (rotated 2026-11-24)": an earlier rotation's suffix is replaced, not
 * stacked; a second rotation on the same day adds the UTC time; the base is cut to fit 100 chars.
 */
export function rotatedLabel(old: string, now: number): string {
  const iso = new Date(now).toISOString();
  const base = old.replace(ROTATED, '');
  const withSuffix = (suffix: string) => `${base.slice(0, MAX_LABEL - suffix.length)}${suffix}`;
  const byDay = withSuffix(` (rotated ${iso.slice(0, 10)})`);
  return byDay === old ? withSuffix(` (rotated ${iso.slice(0, 10)} ${iso.slice(11, 16)})`) : byDay;
}

/** Without --expires, the successor lives as long as the old token was given; never stays never. */
export function successorExpiry(old: AccessToken, now: number): string | undefined {
  if (!old.expires_at) return undefined;
  const lifetime = Date.parse(old.expires_at) - Date.parse(old.created_at);
  return lifetime > 0 ? new Date(now + lifetime).toISOString() : undefined;
}

export async function rotateToken(
  deps: RotationDeps,
  old: AccessToken,
  opts: RotationOptions,
): Promise<RotationResult> {
  const steps: RotationStep[] = [];
  const result: RotationResult = { old, steps };
  const fail = (step: StepName, detail: string, error: unknown) => {
    steps.push({ step, ok: false, detail: `${detail}: ${(error as Error).message}` });
    result.error = error;
  };

  const expiresAt = opts.expiresAt === undefined ? successorExpiry(old, deps.now) : opts.expiresAt;
  let created: AccessToken;
  try {
    created = await deps.client.create({
      token_label: rotatedLabel(old.token_label, deps.now),
      scopes: [...old.scopes],
      ...(expiresAt ? { expires_at: expiresAt } : {}),
    });
  } catch (err) {
    fail('create', 'creating the new token failed; nothing was changed', err);
    return result;
  }
  steps.push({ step: 'create', ok: true, detail: `created "${created.token_label}" (${created.uuid})` });

  let failed = false;
  try {
    if (!created.token) throw new Error('the hub did not return the new secret');
    await deps.verify(created.token);
    steps.push({ step: 'verify', ok: true, detail: 'the new secret was exchanged for a JWT' });
    const verb = opts.deleteOld ? 'delete' : 'deactivate';
    try {
      await retire(deps.client, old.uuid, opts.deleteOld);
      steps.push({ step: `${verb}-old`, ok: true, detail: `${verb}d the old token (${old.uuid})` });
    } catch (err) {
      const state = (err as { oldTokenState?: string }).oldTokenState ?? 'active';
      fail(`${verb}-old`, `could not ${verb} the old token (${old.uuid}); ${state}`, err);
      failed = true;
    }
  } catch (err) {
    fail('verify', 'the new secret could not be exchanged; the old token was not changed', err);
    failed = true;
  }
  if (!failed) {
    result.created = created;
    return result;
  }
  // The old token still works; the successor must not stay active unseen.
  try {
    await deps.client.update(created.uuid, { is_active: false });
    steps.push({
      step: 'deactivate-new',
      ok: true,
      detail: `deactivated the new token (${created.uuid}) again`,
    });
  } catch (err) {
    steps.push({
      step: 'deactivate-new',
      ok: false,
      detail: `could not deactivate the new token (${created.uuid}); deactivate or delete it: ${(err as Error).message}`,
    });
  }
  result.created = { ...created, token: undefined };
  return result;
}

/**
 * Deactivates or deletes the old token. When the call fails, the token is read back: an answer
 * lost after the hub acted counts as done, so "still active" in a report is what the hub says.
 */
async function retire(client: AccessTokenClient, uuid: string, remove: boolean): Promise<void> {
  try {
    if (remove) await client.delete(uuid);
    else await client.update(uuid, { is_active: false });
  } catch (err) {
    const now = await client.get(uuid).then(
      (t) => (t.is_active ? 'active' : 'inactive'),
      (readErr: unknown) => ((readErr as { status?: number }).status === 404 ? 'gone' : 'unknown'),
    );
    if (now === 'gone' || (!remove && now === 'inactive')) return;
    // What the report says of the old token: only "still active" when the hub said so.
    const said = now === 'unknown' ? 'its state could not be read back' : `it is still ${now}`;
    throw Object.assign(err as object, { oldTokenState: said });
  }
}
