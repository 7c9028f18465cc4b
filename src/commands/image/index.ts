import type { Command } from 'commander';
import type { CommandHost } from '../host.js';

export function register(_group: Command, _host: CommandHost): void {}
