import type { Command } from 'commander';
import type { CommandHost } from '../host.js';
import * as script from './script.js';

export function register(group: Command, host: CommandHost): void {
  script.register(group, host);
}
