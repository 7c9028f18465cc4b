// The world of a registry client test: the hub emulator as token service, a real distribution 2.8
// behind it, and a RegistryClient logged in as alice. Call inside describeWithRegistry: it adds the
// suite's beforeAll and afterAll, and fills the returned object once they ran.
import { afterAll, beforeAll } from 'vitest';
import { RegistryClient } from '../../src/api/registry/client.js';
import { systemClock } from '../../src/clock.js';
import { createHttpClient } from '../../src/http/client.js';
import { type HubEmulator, startHubEmulator } from './hub-emulator.js';
import { type RunningRegistry, startRegistry } from './registry.js';

export interface RegistryWorld {
  hub: HubEmulator;
  registry: RunningRegistry;
  client: RegistryClient;
  /** `repository` on this registry. */
  repo: { registry: string; repository: string };
}

export function useRegistryWorld(repository: string): RegistryWorld {
  const world = { repo: { registry: '', repository } } as RegistryWorld;
  beforeAll(async () => {
    world.hub = await startHubEmulator();
    world.registry = await startRegistry(world.hub.registryAuth);
    world.repo.registry = world.registry.host;
    world.client = new RegistryClient({
      http: createHttpClient({ userAgent: 'test', clock: systemClock, retryBaseMs: 1 }),
      clock: systemClock,
      credentials: async () => ({ username: 'alice', secret: 'alice-password' }),
    });
  });
  afterAll(async () => {
    await world.registry?.stop();
    await world.hub?.close();
  });
  return world;
}
