// docker-credential-NAME programs that fail in each way a real one can, written into a temporary
// directory to put first on the PATH.
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPTS: Record<string, string> = {
  // exits 1 with a message, as a locked keychain does
  fails:
    'cat >/dev/null; echo "error storing credentials - err: exit status 1, out: keychain locked"; exit 1',
  // echoes what it was given (the secret too) in its error
  echoes: 'echo "cannot store: $(cat)"; exit 1',
  // answers something that is not a credential
  garbage: 'cat >/dev/null; printf "\\033]0;owned\\007 this is not JSON"',
  // exits at once, without reading its input (a write to its stdin then fails with EPIPE)
  quits: 'echo "no such entry"; exit 1',
  // never answers
  hangs: 'exec sleep 60',
  // never answers, and its own child (gpg under pass) keeps the pipes open after it is killed;
  // the child's pid goes to $HELPER_PID_FILE
  'hangs-with-child': 'sleep 60 & echo $! > "$HELPER_PID_FILE"; wait',
  // answers, exits, and leaves a child holding its pipes
  'answers-leaves-child':
    'cat >/dev/null; printf \'{"Username":"u","Secret":"s"}\'; sleep 60 & echo $! > "$HELPER_PID_FILE"; exit 0',
  // answers far more than any credential
  floods: 'cat >/dev/null; head -c 200000 /dev/zero | tr "\\0" "x"',
};

/** A directory holding docker-credential-{fails,garbage,hangs,floods}. */
export function fakeHelperDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hubctl-helpers-'));
  for (const [name, body] of Object.entries(SCRIPTS)) {
    const path = join(dir, `docker-credential-${name}`);
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
  }
  return dir;
}
