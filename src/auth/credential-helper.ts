// Secrets in a keychain through the docker credential helpers' protocol
// (docker/docker-credential-helpers): `docker-credential-NAME store|get|erase|list`, the server URL
// or a {ServerURL, Username, Secret} document on stdin, JSON on stdout, a message on stdout with a
// non-zero exit on failure. A helper is another program: its output is capped, timed out and
// checked, and every failure is an error that names it, never a quiet fall back to a file.
import { spawn } from 'node:child_process';
import { HubctlError } from '../errors.js';

/** The answer of a helper is a few hundred bytes; anything past this is not one. */
export const HELPER_OUTPUT_CAP = 64 * 1024;
export const HELPER_TIMEOUT_MS = 10_000;
/** After a helper exits, how long its output may still take to drain from its pipes. */
const EXIT_GRACE_MS = 250;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A credential helper that is missing, failed, hung or answered nonsense (exit 1). */
export class CredentialHelperError extends HubctlError {
  override readonly code = 'CREDENTIAL_HELPER';
}

export interface HelperOptions {
  /** The environment the helper runs with (PATH, GNUPGHOME, PASSWORD_STORE_DIR, DBUS…); default: ours. */
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
}

export interface SecretStore {
  /** `docker-credential-NAME`, as messages and `auth status` name it. */
  readonly program: string;
  store(serverUrl: string, username: string, secret: string): Promise<void>;
  /** The credential, or undefined when the helper has none for that URL. */
  get(serverUrl: string): Promise<{ username: string; secret: string } | undefined>;
  erase(serverUrl: string): Promise<void>;
}

export function checkHelperName(name: string): string {
  if (!NAME.test(name)) {
    throw new CredentialHelperError(
      `"${name}" is not a credential helper name (letters, digits, . _ -; the program is docker-credential-NAME)`,
    );
  }
  return name;
}

// Helpers say "not found" in their own words; these are the documented ones.
const NOT_FOUND = /credentials not found|could not be found|not found in (native )?keychain/i;

export function helperStore(name: string, options: HelperOptions): SecretStore {
  const program = `docker-credential-${checkHelperName(name)}`;
  const call = (verb: string, input: string, secret?: string) =>
    runHelper(program, verb, input, options, secret);
  return {
    program,
    async store(serverUrl, username, secret) {
      await call(
        'store',
        JSON.stringify({ ServerURL: serverUrl, Username: username, Secret: secret }),
        secret,
      );
    },
    async get(serverUrl) {
      let out: string;
      try {
        out = await call('get', serverUrl);
      } catch (err) {
        if (err instanceof HelperExit && NOT_FOUND.test(err.output)) return undefined;
        throw err;
      }
      let doc: unknown;
      try {
        doc = JSON.parse(out);
      } catch {
        doc = undefined;
      }
      const { Username, Secret } = (doc ?? {}) as { Username?: unknown; Secret?: unknown };
      if (typeof Username !== 'string' || typeof Secret !== 'string') {
        throw new CredentialHelperError(
          `${program} get answered something that is not a credential (JSON with Username and Secret)`,
        );
      }
      // docker-credential-pass answers an empty credential for an unknown URL.
      return Secret === '' ? undefined : { username: Username, secret: Secret };
    },
    async erase(serverUrl) {
      try {
        await call('erase', serverUrl);
      } catch (err) {
        if (err instanceof HelperExit && NOT_FOUND.test(err.output)) return;
        throw err;
      }
    },
  };
}

/** A helper that exited non-zero; `output` is its (capped) message, for "not found" checks. */
class HelperExit extends CredentialHelperError {
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(message);
  }
}

/**
 * Runs `program verb` with `input` on stdin and answers its stdout: capped, timed out, a missing
 * program or a non-zero exit an error naming it. The one way hubctl runs a credential helper.
 */
export function runHelper(
  program: string,
  verb: string,
  input: string,
  options: HelperOptions,
  /** Cut out of any message: a helper that echoes its input must not print the secret. */
  secret?: string,
): Promise<string> {
  const timeoutMs = options.timeoutMs ?? HELPER_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const child = spawn(program, [verb], { env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const finish = (err: CredentialHelperError | undefined, output?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(output ?? '');
    };
    // A hung or flooding helper is killed and its pipes closed at once: its own children (`gpg`
    // under `pass`) may hold them open long after it died, and nothing more is read from them.
    const stop = (err: CredentialHelperError) => {
      child.kill('SIGKILL');
      child.stdout.destroy();
      child.stderr.destroy();
      child.stdin.destroy();
      child.unref();
      finish(err);
    };
    const timer = setTimeout(
      () => stop(new CredentialHelperError(`${program} ${verb} did not answer within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    const collect = (chunk: Buffer) => {
      size += chunk.length;
      if (size > HELPER_OUTPUT_CAP) {
        stop(
          new CredentialHelperError(`${program} ${verb} answered more than ${HELPER_OUTPUT_CAP / 1024} KiB`),
        );
      } else chunks.push(chunk);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', (err: NodeJS.ErrnoException) => {
      finish(
        err.code === 'ENOENT'
          ? new CredentialHelperError(`${program} was not found on the PATH`, {
              hint: 'Install it, choose another credential-store, or pass --insecure-storage to keep the secret in hubctl’s own file.',
            })
          : new CredentialHelperError(`${program} could not be started: ${err.message}`),
      );
    });
    const done = (code: number | null) => {
      let output = Buffer.concat(chunks).toString('utf8');
      if (secret) output = output.split(secret).join('[secret]');
      if (code !== 0) {
        return finish(
          new HelperExit(`${program} ${verb} failed (exit ${code}): ${firstLine(output)}`, output),
        );
      }
      finish(undefined, output);
    };
    child.on('close', done);
    // The helper exited but a child of its own still holds its pipes: what it wrote has arrived
    // within a moment; the pipes are then closed rather than waited on.
    child.on('exit', (code) => {
      setTimeout(() => {
        if (settled) return;
        child.stdout.destroy();
        child.stderr.destroy();
        done(code);
      }, EXIT_GRACE_MS).unref();
    });
    // A helper that exits without reading its input must not crash us with EPIPE.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

/** The helper's message, one line of printable text, at most 200 characters. */
function firstLine(output: string): string {
  const line = output.trim().split('\n')[0] ?? '';
  const clean = line.replace(/[^\x20-\x7e]/g, '?').slice(0, 200);
  return clean || 'no message';
}
