// The Cedar engine: the official bindings (`@cedar-policy/cedar-wasm`, their Node.js build), loaded
// on first use only, so that nothing but Cedar work pays for them (4 MB of WebAssembly, ~50 ms).
// Loading reads the module's own .wasm file; everything else here is computation.
import type * as CedarWasm from '@cedar-policy/cedar-wasm/nodejs';

export type Cedar = typeof CedarWasm;
export type {
  AuthorizationAnswer,
  DetailedError,
  EntityJson,
  PolicyJson,
  SchemaJson,
} from '@cedar-policy/cedar-wasm/nodejs';

let loading: Promise<Cedar> | undefined;

/** The Cedar bindings, loaded once. */
export function loadCedar(): Promise<Cedar> {
  if (!loading) {
    loading = import('@cedar-policy/cedar-wasm/nodejs').then((m) => {
      // CommonJS seen through import(): the functions are the namespace's, or its default's
      const ns = m as unknown as Cedar & { default?: Cedar };
      return typeof ns.isAuthorized === 'function' ? ns : (ns.default as Cedar);
    });
    // a failed load is not kept: the next call tries again
    loading.catch(() => {
      loading = undefined;
    });
  }
  return loading;
}
