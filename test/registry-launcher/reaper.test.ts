import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { expect, it } from 'vitest';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/status`, 'utf8').match(/^State:\s*Z/m);
  } catch {
    return false;
  }
};

it('kills registered processes and removes registered directories when the test process is killed', async () => {
  const work = mkdtempSync(join(tmpdir(), 'reaper-test-'));
  const bundle = join(work, 'reaper.mjs');
  buildSync({
    entryPoints: ['test/support/reaper.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: bundle,
  });
  const victimDir = mkdtempSync(join(tmpdir(), 'reaper-victim-'));
  const kept = mkdtempSync(join(tmpdir(), 'reaper-kept-'));
  const main = join(work, 'main.mjs');
  writeFileSync(
    main,
    `import { spawn } from 'node:child_process';
     import { reapProcess, reapDirectory } from ${JSON.stringify(bundle)};
     const sleeper = spawn('sleep', ['60'], { stdio: 'ignore', detached: true });
     reapProcess(sleeper.pid);
     reapDirectory(${JSON.stringify(victimDir)});
     reapDirectory(${JSON.stringify(kept)})();   // registered, then released
     console.log(sleeper.pid);
     setInterval(() => {}, 1000);`,
  );
  const child = spawn(process.execPath, [main], { stdio: ['ignore', 'pipe', 'inherit'] });
  const pid = await new Promise<number>((resolve) =>
    child.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim()))),
  );
  expect(alive(pid)).toBe(true);
  child.kill('SIGKILL'); // no exit handlers run
  for (let i = 0; i < 100 && (alive(pid) || existsSync(victimDir)); i++)
    await new Promise((r) => setTimeout(r, 50));
  expect(alive(pid)).toBe(false);
  expect(existsSync(victimDir)).toBe(false);
  expect(existsSync(kept)).toBe(true);
  rmSync(kept, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});
