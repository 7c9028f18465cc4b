// image inspect docker-daemon:… and image list docker-daemon: against the engine emulator, which
// writes each API version's fields: the output is the same at every version.
import { afterEach, describe, expect, it } from 'vitest';
import {
  type EngineEmulator,
  type EngineEmulatorOptions,
  SAMPLE_IMAGE,
  startEngineEmulator,
} from '../../support/engine-emulator.js';
import { runCli } from '../../support/run-cli.js';

let engines: EngineEmulator[] = [];
afterEach(async () => {
  await Promise.all(engines.map((e) => e.close()));
  engines = [];
});

async function engine(options: EngineEmulatorOptions = {}): Promise<EngineEmulator> {
  const e = await startEngineEmulator(options);
  engines.push(e);
  return e;
}

const EXPECTED = {
  reference: 'docker-daemon:app:1',
  Id: SAMPLE_IMAGE.id,
  RepoTags: ['app:1'],
  RepoDigests: [],
  Created: '2026-11-20T10:00:00Z',
  Size: 7_340_032,
  Os: 'linux',
  Architecture: 'amd64',
  Config: { Env: ['PATH=/usr/bin'], Cmd: ['/bin/app'], WorkingDir: '/srv', Labels: { team: 'a' } },
  RootFS: { Type: 'layers', Layers: SAMPLE_IMAGE.layers },
};

describe('image inspect docker-daemon:', () => {
  it.each(['1.24', '1.41', '1.44', '1.45', '1.48', '1.49', '1.50', '1.51', '1.52'])(
    'shows the same image at API %s',
    async (version) => {
      const e = await engine({ maxApi: version });
      const r = await runCli(['image', 'inspect', 'docker-daemon:app:1', '--json'], {
        env: { DOCKER_HOST: e.host },
      });
      expect(r.stderr).toBe('');
      expect(JSON.parse(r.stdout)).toEqual(EXPECTED);
      expect(e.requests.at(-1)).toEqual({ method: 'GET', url: `/v${version}/images/app%3A1/json` });
    },
  );

  it('prints fields on a terminal without the container fields', async () => {
    const e = await engine({ maxApi: '1.41' });
    const r = await runCli(['image', 'inspect', 'docker-daemon:app:1'], { env: { DOCKER_HOST: e.host } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Cmd\t["/bin/app"]\n');
    expect(r.stdout).toContain('Working dir\t/srv\n');
    expect(r.stdout).not.toMatch(/Hostname|ContainerConfig/);
  });

  it('an image that is not there is exit 5, in the engine’s words', async () => {
    const e = await engine();
    const r = await runCli(['image', 'inspect', 'docker-daemon:nothing:1'], { env: { DOCKER_HOST: e.host } });
    expect(r.code).toBe(5);
    expect(r.stderr).toBe('hubctl: inspecting nothing:1 in the engine: No such image: nothing:1\n');
  });

  it('--raw and --platform are for registries', async () => {
    const r = await runCli(['image', 'inspect', 'docker-daemon:app:1', '--raw']);
    expect(r.code).toBe(2);
  });
});

describe('image list docker-daemon:', () => {
  const images = [
    { ...SAMPLE_IMAGE },
    { ...SAMPLE_IMAGE, id: `sha256:${'a'.repeat(64)}`, tags: ['team/web:2', 'team/web:latest'] },
  ];

  it('lists every image, and passes a pattern as the reference filter', async () => {
    const e = await engine({ images });
    const all = await runCli(['image', 'list', 'docker-daemon:'], { env: { DOCKER_HOST: e.host } });
    expect(all.code).toBe(0);
    expect(
      all.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]),
    ).toEqual(['app:1', 'team/web:2', 'team/web:latest']);
    const some = await runCli(['image', 'list', 'docker-daemon:team/*', '--json'], {
      env: { DOCKER_HOST: e.host },
    });
    expect(JSON.parse(some.stdout).map((i: { repoTags: string[] }) => i.repoTags)).toEqual([
      ['team/web:2', 'team/web:latest'],
    ]);
    expect(e.requests.at(-1)?.url).toBe(
      `/v1.52/images/json?filters=${encodeURIComponent('{"reference":["team/*"]}')}`,
    );
    expect(e.requests.some((q) => q.url.includes('filter='))).toBe(false);
  });

  it('refuses a registry', async () => {
    const r = await runCli(['image', 'list', 'localhost:5000/app']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('image list reads the engine');
  });
});
