// Token rotation in the order of issue 15: create the successor (same scopes, derived label),
// verify its secret by a real exchange, then deactivate (or delete) the old token. Any failure
// leaves the old token active, and a successor that was created is deactivated again, so no new
// active secret is left behind that nobody has seen — also when an answer is lost after the hub
// acted (issue 20): a successor whose creation's answer was lost is found by its label, an old
// token whose deactivation's answer was lost is activated again. Where even that fails, the result
// says what state was left and what to run. Every step is recorded for the report.
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
  /** The old token as the run leaves it, as far as hubctl knows. */
  oldState: 'active' | 'inactive' | 'gone' | 'unknown';
  /** Successors left active (their secret never shown); [] when one may exist that hubctl could not find. */
  newActive?: string[];
  /** Commands the user must run to finish what the run could not, in order. */
  todo: string[];
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

/** A failure after which the hub may have acted: anything but a refusal (4xx) it answered. */
function mayHaveActed(err: unknown): boolean {
  const status = (err as { status?: unknown }).status;
  return !(typeof status === 'number' && status >= 400 && status < 500);
}

/** The UUIDs of the tokens that bear `label` (bounded by the client's own list caps). */
async function labelled(client: AccessTokenClient, label: string): Promise<AccessToken[]> {
  const found: AccessToken[] = [];
  for await (const t of client.listAll()) if (t.token_label === label) found.push(t);
  return found;
}

export async function rotateToken(
  deps: RotationDeps,
  old: AccessToken,
  opts: RotationOptions,
): Promise<RotationResult> {
  const steps: RotationStep[] = [];
  const result: RotationResult = { old, steps, oldState: 'active', todo: [] };
  const fail = (step: StepName, detail: string, error: unknown) => {
    steps.push({ step, ok: false, detail: `${detail}: ${(error as Error).message}` });
    result.error = error;
  };

  const expiresAt = opts.expiresAt === undefined ? successorExpiry(old, deps.now) : opts.expiresAt;
  const label = rotatedLabel(old.token_label, deps.now);
  // The tokens that already bear the successor's label: should the create's answer be lost, the
  // successor is the one that bears it afterwards and was not among these.
  let before: Set<string>;
  try {
    before = new Set((await labelled(deps.client, label)).map((t) => t.uuid));
  } catch (err) {
    fail('create', 'listing the tokens before creating the new one failed; nothing was changed', err);
    return result;
  }
  let created: AccessToken;
  try {
    created = await deps.client.create({
      token_label: label,
      scopes: [...old.scopes],
      ...(expiresAt ? { expires_at: expiresAt } : {}),
    });
  } catch (err) {
    if (!mayHaveActed(err)) {
      fail('create', 'creating the new token failed; nothing was changed', err);
      return result;
    }
    await findLostSuccessor(deps.client, result, { label, before, error: err });
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
      const state = err as { oldTokenState?: string; oldTokenLeft?: RotationResult['oldState'] };
      fail(
        `${verb}-old`,
        `could not ${verb} the old token (${old.uuid}); ${state.oldTokenState ?? 'it is still active'}`,
        err,
      );
      result.oldState = state.oldTokenLeft ?? 'active';
      if (result.oldState === 'unknown') {
        result.todo.push(
          opts.deleteOld
            ? `hubctl token get ${old.uuid}   # if it is gone, make a new token: hubctl token create`
            : `hubctl token activate ${old.uuid}`,
        );
      }
      failed = true;
    }
  } catch (err) {
    if (!failed) {
      fail('verify', 'the new secret could not be exchanged; the old token was not changed', err);
      failed = true;
    }
  }
  if (!failed) {
    result.created = created;
    result.oldState = opts.deleteOld ? 'gone' : 'inactive';
    return result;
  }
  // The old token still works; the successor must not stay active unseen.
  await deactivateNew(deps.client, result, created);
  result.created = { ...created, token: undefined };
  return result;
}

/** Deactivates a successor whose secret nobody will see, recording the step and what is left. */
async function deactivateNew(client: AccessTokenClient, result: RotationResult, created: AccessToken) {
  try {
    await client.update(created.uuid, { is_active: false });
    result.steps.push({
      step: 'deactivate-new',
      ok: true,
      detail: `deactivated the new token (${created.uuid}) again`,
    });
  } catch (err) {
    result.steps.push({
      step: 'deactivate-new',
      ok: false,
      detail: `could not deactivate the new token (${created.uuid}); deactivate or delete it: ${(err as Error).message}`,
    });
    result.newActive = [...(result.newActive ?? []), created.uuid];
    result.todo.push(`hubctl token deactivate ${created.uuid}`);
  }
}

/**
 * The create failed in a way the hub may have acted on (its answer lost, a 5xx, a garbled body):
 * the successor is looked for by its label, and one that was made is deactivated again (nobody
 * has seen its secret). What was found, done and left is recorded.
 */
async function findLostSuccessor(
  client: AccessTokenClient,
  result: RotationResult,
  lost: { label: string; before: Set<string>; error: unknown },
): Promise<void> {
  const message = (lost.error as Error).message;
  result.error = lost.error;
  let made: AccessToken[];
  try {
    made = (await labelled(client, lost.label)).filter((t) => !lost.before.has(t.uuid));
  } catch (err) {
    result.steps.push({
      step: 'create',
      ok: false,
      detail: `creating the new token failed (${message}); the hub may have made it anyway, and looking for it failed too: ${(err as Error).message}`,
    });
    result.newActive = [];
    result.todo.push(
      `hubctl token list --all   # then deactivate any token labelled "${lost.label}": hubctl token deactivate UUID`,
    );
    return;
  }
  if (made.length === 0) {
    result.steps.push({
      step: 'create',
      ok: false,
      detail: `creating the new token failed; the hub made none (looked up by its label); nothing was changed: ${message}`,
    });
    return;
  }
  result.steps.push({
    step: 'create',
    ok: false,
    detail: `creating the new token failed (${message}), but the hub made it: "${lost.label}" (${made.map((t) => t.uuid).join(', ')})`,
  });
  for (const t of made) await deactivateNew(client, result, t);
  result.created = { ...made[0]!, token: undefined };
}

/**
 * Deactivates or deletes the old token. When the call fails, the token is read back: an answer
 * lost after the hub acted counts as done, so "still active" in a report is what the hub says.
 * When it cannot be read back, a deactivation is undone (the token is activated again), so that
 * the old token is known to be active, as the README promises; only when that fails too is its
 * state reported as unknown, with the command to run.
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
    if (now === 'active') throw Object.assign(err as object, { oldTokenState: 'it is still active' });
    if (!remove) {
      const restored = await client.update(uuid, { is_active: true }).then(
        (t) => t.is_active,
        () => false,
      );
      if (restored) {
        throw Object.assign(err as object, {
          oldTokenState: 'its state could not be read back, so it was activated again: it is active',
        });
      }
      throw Object.assign(err as object, {
        oldTokenState: 'its state could not be read back and activating it again failed: it may be inactive',
        oldTokenLeft: 'unknown',
      });
    }
    throw Object.assign(err as object, {
      oldTokenState: 'its state could not be read back: it may have been deleted',
      oldTokenLeft: 'unknown',
    });
  }
}
