import type { Command } from 'commander';
import type { CommandHost } from '../host.js';
import * as info from './info.js';
import * as version from './version.js';

export function register(group: Command, host: CommandHost): void {
  version.register(group, host);
  info.register(group, host);
}
