import type { Command } from 'commander';
import type { CommandHost } from '../host.js';
import * as exportEvents from './export.js';
import * as list from './list.js';
import * as summary from './summary.js';
import * as tail from './tail.js';

export function register(group: Command, host: CommandHost): void {
  list.register(group, host);
  exportEvents.register(group, host);
  summary.register(group, host);
  tail.register(group, host);
}
