// `auth login` and `auth logout` end the profile's cached hub sessions (every account and origin).
import type { ConfigStore } from '../../config/store.js';

export async function dropCachedJwts(store: ConfigStore, profile: string): Promise<number> {
  const { jwtCacheKeyProfile } = await import('../../auth/jwt-cache.js');
  return store.deleteCachedJwts((key) => jwtCacheKeyProfile(key) === profile);
}
