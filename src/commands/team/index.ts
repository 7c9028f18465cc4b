import type { Command } from 'commander';
import type { CommandHost } from '../host.js';
import * as get from './get.js';
import * as list from './list.js';

export function register(group: Command, host: CommandHost): void {
  list.register(group, host);
  get.register(group, host);
}
