// A real keychain for tests: docker-credential-pass over `pass`, with a throwaway GnuPG key made
// without a passphrase in a temporary directory. Needs golang-docker-credential-helpers, pass and
// gnupg (.ci/run installs them); `passAvailable` says whether this machine has them.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const passAvailable = ['docker-credential-pass', 'pass', 'gpg'].every(
  (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0,
);

export interface PassStore {
  /** GNUPGHOME and PASSWORD_STORE_DIR (and PATH), for hubctl's environment. */
  env: Record<string, string>;
  /** What docker-credential-pass lists: server URL → user name. */
  list(): Record<string, string>;
  /** Stops the GnuPG agent this store started. */
  stop(): void;
}

export function makePassStore(path: string = process.env.PATH ?? ''): PassStore {
  const work = mkdtempSync(join(tmpdir(), 'hubctl-pass-'));
  const GNUPGHOME = join(work, 'gnupg');
  mkdirSync(GNUPGHOME, { mode: 0o700 });
  const env = { GNUPGHOME, PASSWORD_STORE_DIR: join(work, 'store'), PATH: path };
  const withHome = { ...env, HOME: work };
  execFileSync(
    'gpg',
    [
      '--batch',
      '--passphrase',
      '',
      '--quick-gen-key',
      'hubctl test <t@hubctl.invalid>',
      'default',
      'default',
      'never',
    ],
    { env: withHome, stdio: 'ignore' },
  );
  const fpr = /^fpr:+([0-9A-F]+):/m.exec(
    execFileSync('gpg', ['--list-keys', '--with-colons'], { env: withHome, encoding: 'utf8' }),
  )?.[1];
  execFileSync('pass', ['init', fpr!], { env: withHome, stdio: 'ignore' });
  return {
    env,
    list: () =>
      JSON.parse(execFileSync('docker-credential-pass', ['list'], { env: withHome, encoding: 'utf8' })),
    stop: () => {
      spawnSync('gpgconf', ['--kill', 'gpg-agent'], { env: withHome });
    },
  };
}
