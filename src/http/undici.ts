// undici, loaded without node's own copy of it. undici's index brand-checks cookie headers against
// `globalThis.Headers` too, as it loads (lib/web/cookies); on node 20 that global is a lazy getter
// that loads and runs node's built-in undici (node:internal/deps/undici), a second fetch, a second
// set of dispatchers: measured, ~8 ms of CPU on every network command, for a brand check of an API
// (cookies) hubctl never calls. So `Headers` reads as undefined while undici's index runs, and its
// own property (getter, or value once something read it) is put back right after: the global
// behaves the same for any later reader. Only undici's public index is loaded (test/arch).
//
// ES module order does it: ./web-globals.js runs (hides) before 'undici' is evaluated, and this
// module's body (puts back) after it; scripts/build.mjs's bundle keeps that order.
import { restoreWebGlobals } from './web-globals.js';

export { Agent, Pool, ProxyAgent } from 'undici';

restoreWebGlobals();
