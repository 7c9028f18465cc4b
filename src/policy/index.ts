// The policy engine's public surface: everything outside src/policy imports from here alone (checked
// by test/arch/imports.test.ts). Pure: no IO, and importing it has no side effects, which
// src/policy/package.json declares (`sideEffects: false`) so that esbuild drops the modules a
// command group does not use instead of pulling the whole engine into, say, the rule commands.
export * from './authored.js';
export { AUTHORED_SHAPES } from './authoring-keys.js';
export * from './authoring-schema.js';
export * from './batch.js';
export * from './case-file.js';
export * from './case-run.js';
export * from './cedar/index.js';
export * from './document.js';
export * from './engine.js';
export * from './lint.js';
export { isBelow, isOneBelow, matchesNetwork } from './matches.js';
export * from './model.js';
export { NETWORK_FORMS, type NetworkPattern, parseNetworkResource } from './network.js';
export {
  DEFAULT_PORT,
  DESTINATION_FORMS,
  type NetworkDestination,
  parseNetworkDestination,
} from './network-destination.js';
export {
  FILESYSTEM_FORMS,
  type FilesystemDestination,
  type FilesystemPattern,
  parseFilesystemDestination,
  parseFilesystemResource,
} from './path.js';
export * from './plan.js';
export * from './resource.js';
export { decodePolicyText } from './source-text.js';
export * from './validate.js';
