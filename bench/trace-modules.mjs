// `node --import ./bench/trace-modules.mjs …` appends every module URL that the ESM loader resolves
// to $HUBCTL_TRACE_FILE. bench/startup.mjs uses it to check that heavy modules stay unloaded.
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
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
  register(import.meta.url, { data: { file: process.env.HUBCTL_TRACE_FILE } });
}
