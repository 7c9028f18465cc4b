// Engine API versions ("1.41") as comparable values, and the range hubctl speaks.
import { UsageError } from '../../errors.js';

/** The oldest version the interface keeps (engine v25.0 on). */
export const OLDEST_API = '1.24';
/** The newest version hubctl knows (engine v29.0). */
export const NEWEST_API = '1.52';

/** major*1000 + minor, so versions compare as numbers. */
export function apiVersionKey(version: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})$/.exec(version.trim());
  return m ? Number(m[1]) * 1000 + Number(m[2]) : undefined;
}

export function compareApi(a: string, b: string): number {
  return (apiVersionKey(a) ?? 0) - (apiVersionKey(b) ?? 0);
}

export function minApi(a: string, b: string): string {
  return compareApi(a, b) <= 0 ? a : b;
}

/** DOCKER_API_VERSION, checked before anything is sent. */
export function checkPinnedVersion(value: string): string {
  const key = apiVersionKey(value);
  if (key === undefined) {
    throw new UsageError(`DOCKER_API_VERSION "${value}" is not a version like ${NEWEST_API}`);
  }
  const version = `${Math.floor(key / 1000)}.${key % 1000}`;
  if (key < (apiVersionKey(OLDEST_API) as number)) {
    throw new UsageError(
      `DOCKER_API_VERSION ${version} is older than ${OLDEST_API}, the oldest engine API version hubctl speaks`,
    );
  }
  return version;
}
