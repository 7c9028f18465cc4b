import type { Command } from 'commander';
import type { CommandHost } from '../host.js';
import * as login from './login.js';
import * as logout from './logout.js';
import * as status from './status.js';
import * as token from './token.js';

export function register(group: Command, host: CommandHost): void {
  login.register(group, host);
  logout.register(group, host);
  status.register(group, host);
  token.register(group, host);
}
