import type { Command } from 'commander';
import type { CommandHost } from '../host.js';
import * as add from './add.js';
import * as del from './delete.js';
import * as list from './list.js';
import * as update from './update.js';

export function register(group: Command, host: CommandHost): void {
  list.register(group, host);
  add.register(group, host);
  update.register(group, host);
  del.register(group, host);
}
