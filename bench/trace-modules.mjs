// `node --import ./bench/trace-modules.mjs …` appends every module that the process resolves to
// $HUBCTL_TRACE_FILE, as a file: URL: ES modules through a loader hook, CommonJS ones (dist/ is
// CommonJS) through the CommonJS resolver. bench/startup.mjs uses it to check that heavy modules
// stay unloaded.
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { isMainThread } from 'node:worker_threads';

let file;
export function initialize(data) {
  file = data?.file;
}
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (file) appendFileSync(file, `${result.url}\n`);
  return result;
}

if (isMainThread && process.env.HUBCTL_TRACE_FILE) {
  const trace = process.env.HUBCTL_TRACE_FILE;
  register(import.meta.url, { data: { file: trace } });
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (...args) {
    const found = resolveFilename.apply(this, args);
    appendFileSync(trace, `${found.startsWith('/') ? pathToFileURL(found).href : found}\n`);
    return found;
  };
}
