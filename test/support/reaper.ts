// Cleans up after a test process however it ends. Test workers are often stopped with a signal,
// and then `process.on('exit')` never runs: a registry started by a test that forgot stop() would
// keep running and temporary directories would stay. So one small helper process per test process
// holds the other end of a pipe; when that pipe closes (this process ended in any way), it sends
// SIGTERM to the registered processes and removes the registered directories.
import { type ChildProcess, spawn } from 'node:child_process';

const REAPER_SOURCE = `
const { rmSync } = require('node:fs');
const pids = new Set(), dirs = new Set();
let buf = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => {
  buf += c;
  let i;
  while ((i = buf.indexOf('\\n')) >= 0) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1);
    const sp = line.indexOf(' '), op = line.slice(0, sp), arg = line.slice(sp + 1);
    if (op === 'pid') pids.add(Number(arg)); else if (op === 'unpid') pids.delete(Number(arg));
    else if (op === 'dir') dirs.add(arg); else if (op === 'undir') dirs.delete(arg);
  }
});
process.stdin.on('end', () => {
  for (const p of pids) { try { process.kill(p, 'SIGTERM'); } catch {} }
  setTimeout(() => {
    for (const p of pids) { try { process.kill(p, 'SIGKILL'); } catch {} }
    for (const d of dirs) { try { rmSync(d, { recursive: true, force: true }); } catch {} }
    process.exit(0);
  }, pids.size ? 500 : 0);
});
`;

let reaper: ChildProcess | undefined;

function send(line: string): void {
  if (!reaper) {
    reaper = spawn(process.execPath, ['-e', REAPER_SOURCE], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
    });
    reaper.unref();
    reaper.on('error', () => {
      reaper = undefined;
    });
    const stdin = reaper.stdin as (NodeJS.WritableStream & { unref?: () => void }) | null;
    stdin?.on('error', () => {});
    stdin?.unref?.();
  }
  reaper.stdin?.write(`${line}\n`);
}

/** Kill this process when the test process ends, unless released first. */
export function reapProcess(pid: number): () => void {
  send(`pid ${pid}`);
  return () => send(`unpid ${pid}`);
}

/** Remove this directory when the test process ends, unless released first. */
export function reapDirectory(dir: string): () => void {
  send(`dir ${dir}`);
  return () => send(`undir ${dir}`);
}
