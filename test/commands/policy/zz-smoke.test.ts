import { it } from 'vitest';
import { startHubEmulator } from '../../support/hub-emulator.js';
import { runCli } from '../../support/run-cli.js';

it('smoke', async () => {
  const hub = await startHubEmulator({ sequentialIds: true });
  const env = {
    HUBCTL_BASE_URL: hub.url,
    HUBCTL_USERNAME: 'alice',
    HUBCTL_TOKEN: 'alice-password',
    HUBCTL_ORG: 'acme',
  };
  for (const argv of [
    ['policy', 'create', 'egress'],
    ['policy', 'create', 'egress'],
    ['policy', 'list'],
    ['policy', 'get', 'egress'],
    ['policy', 'update', 'egress', '--name', 'e2', '--team', '6f1c2a3e-8d4b-4e5f-9a0b-1c2d3e4f5a6b'],
    ['policy', 'list', '--json'],
    ['policy', 'delete', 'e2'],
    ['policy', 'delete', 'e2', '--yes'],
    ['policy', 'get', 'nope'],
    ['policy', 'update', 'x'],
    ['policy', 'delete', '--help'],
  ]) {
    const r = await runCli(argv, { env, tty: argv[1] === 'list' });
    console.log(argv.join(' '), '=>', r.code, '\n' + r.stdout + '---\n' + r.stderr);
  }
  await hub.close();
});
