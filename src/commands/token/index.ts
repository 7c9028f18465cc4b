import type { Command } from 'commander';
import type { CommandHost } from '../host.js';
import * as create from './create.js';
import * as del from './delete.js';
import * as get from './get.js';
import * as list from './list.js';
import * as rotate from './rotate.js';
import * as setActive from './set-active.js';

export function register(group: Command, host: CommandHost): void {
  create.register(group, host);
  list.register(group, host);
  get.register(group, host);
  setActive.register(group, host, 'activate');
  setActive.register(group, host, 'deactivate');
  del.register(group, host);
  rotate.register(group, host);
}
