// The external programs some suites need (docker-registry, skopeo, podman). Without one, those
// suites skip on a developer's machine, with one notice for the whole run (test/support/
// tool-notice.ts); under CI=true a missing program fails the run instead.

import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, it } from 'vitest';

export const TOOLS = {
  'docker-registry': ['docker-registry', 'registry'],
  skopeo: ['skopeo'],
  podman: ['podman'],
  xmllint: ['xmllint'],
  // The witness of --jq: Debian's jq, against which hubctl's own jq is compared.
  jq: ['jq'],
  // A real terminal for the prompt and progress tests (test/output/prompt-tty.test.ts).
  tmux: ['tmux'],
  // `man -l` renders the generated man pages (test/arch/man.test.ts).
  man: ['man'],
} as const;

export type Tool = keyof typeof TOOLS;

export const INSTALL = 'apt-get install -y docker-registry skopeo podman libxml2-utils jq tmux man-db';

export function toolPath(tool: Tool): string | undefined {
  const dirs = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of TOOLS[tool])
    for (const dir of dirs) {
      try {
        accessSync(join(dir, name), constants.X_OK);
        return join(dir, name);
      } catch {
        // not here
      }
    }
  return undefined;
}

export function missingTools(tools: readonly Tool[] = Object.keys(TOOLS) as Tool[]): Tool[] {
  return tools.filter((t) => toolPath(t) === undefined);
}

/** `describe` for a suite that needs `tools`: skipped without them, failed without them in CI. */
export function describeWithTools(tools: readonly Tool[], name: string, fn: () => void): void {
  const missing = missingTools(tools);
  if (missing.length === 0) describe(name, fn);
  else if (process.env.CI === 'true')
    describe(name, () => {
      it(`needs ${missing.join(', ')}`, () => {
        throw new Error(`${missing.join(', ')} not installed (${INSTALL}); required when CI=true`);
      });
    });
  else describe.skip(name, fn);
}

/** The test registry's account, as skopeo takes it (`user:password`). */
export const SKOPEO_CREDS = 'alice:alice-password';

/** `skopeo copy` from a registry of the tests (plain HTTP, alice's credentials) to a local place. */
export function skopeoPullArgs(from: string, to: string): string[] {
  return ['copy', '-q', '--src-tls-verify=false', '--src-creds', SKOPEO_CREDS, `docker://${from}`, to];
}
