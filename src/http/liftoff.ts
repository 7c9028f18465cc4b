// The V8 flag undici's HTTP parser needs (--liftoff-only), and when to set it. Small on purpose:
// src/context.ts loads it before the HTTP layer, and it must not load undici.
import { File } from 'node:buffer';
import { createRequire } from 'node:module';
import { setV8Flag } from '../v8-flags.js';

/**
 * undici parses HTTP/1 with llhttp compiled to wasm. V8 tiers its hot functions up to TurboFan on
 * a background thread, and node waits for that compilation before the process can exit. The
 * baseline (Liftoff) code parses a response as well for a CLI's needs, so TurboFan is kept out of
 * wasm. Measured (`image tags` against a registry on 127.0.0.1, 30 interleaved runs, load ~8):
 * 2 requests: CPU 109 ms with the flag, 218 ms without; wall 168 ms against 307 ms; 11 requests
 * (10 pages): CPU 122 against 237 ms, wall 284 against 546 ms. test/e2e/cli.test.ts checks that
 * no TurboFan compilation runs. Set once, before undici compiles llhttp (on its first connection);
 * the flag only touches wasm, for the rest of the process (Cedar's engine, wasm too, runs on
 * Liftoff in a command that reached the network first). It changes the hash V8 checks code caches
 * against, so the code cache (src/compile-cache.ts) is told first.
 */
export function keepParserOnBaseline(): void {
  if (parserOnBaseline) return;
  parserOnBaseline = true;
  // Undone (at exit, for the code cache) with what --liftoff-only implies: no tier-up.
  setV8Flag('--liftoff-only', '--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering');
}
let parserOnBaseline = false;

/**
 * Sets the flag before the HTTP layer and undici compile rather than at the first connection, so
 * that their chunks are compiled under the flag from the start and their code caches, written at
 * exit, hold every function the command ran; caches taken when the flag was set held only what had
 * run by then, and each run compiled undici's request path again. The node modules they load are
 * loaded first: V8 checks node's own built-in code caches against its
 * flag hash too, and one loaded after the flag is compiled from source, every run (measured: ~20 ms
 * more for a registry copy when all of these came after it). One missing here costs time, never
 * correctness; test/e2e/network-startup.test.ts checks that none loads after the flag.
 */
export function keepParserOnBaselineBeforeHttp(): void {
  if (parserOnBaseline) return;
  const require = createRequire(import.meta.url);
  for (const name of HTTP_BUILTINS) require(name);
  // A lazy export undici reads as it loads (node:internal/file).
  void File;
  keepParserOnBaseline();
}

/** The node modules that undici's index and the HTTP layer load as they load. */
const HTTP_BUILTINS = [
  'node:assert',
  'node:async_hooks',
  'node:console',
  'node:crypto',
  'node:diagnostics_channel',
  'node:dns',
  'node:http',
  'node:http2',
  'node:net',
  'node:perf_hooks',
  'node:querystring',
  'node:stream',
  'node:stream/web',
  'node:tls',
  'node:url',
  'node:util',
  'node:util/types',
  'node:worker_threads',
  'node:zlib',
];
