// Man pages generated from the command tree: hubctl(1) with the global options, the commands, the
// exit codes and the environment, and one page per command group, hubctl-GROUP(1), with each verb's
// usage, options and examples. `npm run man` writes them to man/; test/arch/man.test.ts checks the
// files are what this prints now, and that `man -l` renders each. Pure: no IO.
import type { Command, Help } from 'commander';
import { HELP_TOPICS } from './help-topics.js';

/** roff text: backslashes and hyphens escaped, no line read as a request. */
function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n');
}

function header(name: string, version: string, title: string): string[] {
  return [
    `.\\" Generated from hubctl's command tree by \`npm run man\`; do not edit.`,
    `.TH ${name.toUpperCase()} 1 "" "hubctl ${version}" "hubctl manual"`,
    '.SH NAME',
    `${roff(name)} \\- ${roff(title)}`,
  ];
}

function optionLines(help: Help, cmd: Command): string[] {
  const out: string[] = [];
  for (const o of help.visibleOptions(cmd)) {
    out.push('.TP', `.B ${roff(o.flags)}`, roff(o.description));
  }
  return out;
}

/** The examples a command adds after its help ("Examples:" lines with `$ `). */
function examplesOf(cmd: Command): string[] {
  let text = '';
  const capture = { writeOut: (s: string) => (text += s), writeErr: () => undefined };
  // The text commander emits around a help: rendered into a string, never printed.
  const copy = cmd.configureOutput();
  cmd.configureOutput({ ...copy, ...capture });
  try {
    cmd.outputHelp();
  } finally {
    cmd.configureOutput(copy);
  }
  return [...text.matchAll(/^\s+\$ (.*)$/gm)].map((m) => m[1]!);
}

/** commander's usage line, which names the parents: `hubctl rule add [options] <policy>`. */
function usage(help: Help, cmd: Command, _path: string[]): string {
  return help.commandUsage(cmd);
}

/** Every page, by file name: hubctl.1 and hubctl-GROUP.1 for each visible group. */
export function manPages(program: Command, version: string): Record<string, string> {
  const help = program.createHelp();
  const groups = help.visibleCommands(program).filter((c) => c.name() !== 'help');
  const pages: Record<string, string> = {};

  const root: string[] = [
    ...header('hubctl', version, program.description()),
    '.SH SYNOPSIS',
    '.B hubctl',
    '[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIverb\\fR] [\\fIoptions\\fR] [\\fIarguments\\fR]',
    '.SH DESCRIPTION',
    roff(program.description()),
    'Every command takes \\fB\\-\\-help\\fR with examples. Data goes to standard output; progress, hints and errors to standard error.',
    '.SH GLOBAL OPTIONS',
    ...optionLines(help, program),
    '.SH COMMANDS',
  ];
  for (const g of groups) root.push('.TP', `.BR hubctl\\-${roff(g.name())} (1)`, roff(g.description()));
  root.push('.SH EXIT STATUS', '.nf', roff(HELP_TOPICS['exit-codes']!.replace(/^Exit codes\n\n/, '')), '.fi');
  root.push(
    '.SH ENVIRONMENT',
    '.nf',
    roff(HELP_TOPICS.environment!.replace(/^Environment variables hubctl reads\n\n/, '')),
    '.fi',
  );
  root.push(
    '.SH OUTPUT FORMATS',
    '.nf',
    roff(HELP_TOPICS.formats!.replace(/^Output formats\n\n/, '')),
    '.fi',
  );
  root.push('.SH SEE ALSO', groups.map((g) => `.BR hubctl\\-${roff(g.name())} (1)`).join(',\n'));
  pages['hubctl.1'] = `${root.join('\n')}\n`;

  for (const g of groups) {
    const name = `hubctl-${g.name()}`;
    const lines = [...header(name, version, g.description()), '.SH SYNOPSIS'];
    const verbs = help.visibleCommands(g).filter((c) => c.name() !== 'help');
    const leaves =
      verbs.length > 0
        ? verbs.map((v) => ({ cmd: v, path: [g.name(), v.name()] }))
        : [{ cmd: g, path: [g.name()] }];
    for (const { cmd, path } of leaves) lines.push('.nf', `.B ${roff(usage(help, cmd, path))}`, '.fi');
    lines.push('.SH DESCRIPTION', roff(g.description()));
    for (const { cmd, path } of leaves) {
      if (verbs.length > 0) {
        lines.push(`.SH "${roff(path.join(' ').toUpperCase())}"`);
        lines.push('.nf', roff(usage(help, cmd, path)), '.fi', roff(cmd.description()));
      }
      const args = help.visibleArguments(cmd);
      if (args.length > 0) {
        lines.push('.PP', 'Arguments:');
        for (const a of args) lines.push('.TP', `.I ${roff(a.name())}`, roff(a.description || ''));
      }
      const opts = optionLines(help, cmd);
      if (opts.length > 0) lines.push('.PP', 'Options:', ...opts);
      const examples = examplesOf(cmd);
      if (examples.length > 0) {
        lines.push('.PP', 'Examples:', '.RS', '.nf');
        for (const e of examples) lines.push(roff(`$ ${e}`));
        lines.push('.fi', '.RE');
      }
    }
    lines.push('.SH SEE ALSO', '.BR hubctl (1)');
    pages[`${name}.1`] = `${lines.join('\n')}\n`;
  }
  return pages;
}
