// Loaded before every test file (vitest setupFiles): a proxy set in the environment of the test
// runner must not reach the tests, nor the hubctl, skopeo and registry processes they start.
// Tests that want a proxy pass it explicitly.
for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY']) {
  delete process.env[name];
  delete process.env[name.toLowerCase()];
}

// hubctl keeps a V8 code cache under XDG_CACHE_HOME (else ~/.cache): the processes tests start keep
// theirs in a temporary directory, never in the machine's own cache.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.XDG_CACHE_HOME = mkdtempSync(join(tmpdir(), 'hubctl-test-cache-'));
