// The policy engine's public surface. Pure: no IO.
export * from './batch.js';
export * from './document.js';
export * from './engine.js';
export * from './lint.js';
export * from './model.js';
export {
  DESTINATION_FORMS,
  NETWORK_FORMS,
  type NetworkDestination,
  type NetworkPattern,
  parseNetworkDestination,
  parseNetworkResource,
} from './network.js';
export {
  FILESYSTEM_FORMS,
  type FilesystemDestination,
  type FilesystemPattern,
  parseFilesystemDestination,
  parseFilesystemResource,
} from './path.js';
export * from './resource.js';
export * from './validate.js';
