// Completion scripts generated from the command tree, so they cannot drift from it (a test checks
// the files in completions/ against this output). Besides commands and options they complete what
// goes after an option or in an argument's place: file names (-f/--file, --input, --ca-file),
// directories (--output-dir), fixed sets (--decision, --scope, --format, actions, config keys,
// choices a command declares), and live names (policies, token labels) through the hidden
// `hubctl __complete`, which answers from a cache of at most 60 s and says nothing offline.
import type { Command } from 'commander';
import { PROFILE_KEYS } from '../../config/store.js';
import { DECISIONS, KNOWN_ACTIONS } from '../../policy/index.js';
import type { LiveKind } from '../complete/index.js';
import { SCOPES } from '../token/values.js';

export type Shell = 'bash' | 'zsh' | 'fish';

/** What completes a value: file names, directories, a fixed set, or live names from the hub. */
export type ValueKind =
  | { type: 'file' }
  | { type: 'dir' }
  | { type: 'words'; words: readonly string[] }
  | { type: 'live'; what: LiveKind }
  | { type: 'none' };

const ACTIONS = [...KNOWN_ACTIONS.network, ...KNOWN_ACTIONS.filesystem];

/**
 * Values of options by long name. An option declared with commander's .choices() completes its
 * choices without a row here; a value option with neither completes nothing (never flag names).
 */
const OPTION_VALUES: Record<string, ValueKind> = {
  '--file': { type: 'file' },
  '--input': { type: 'file' },
  '--ca-file': { type: 'file' },
  '--output-dir': { type: 'dir' },
  '--decision': { type: 'words', words: DECISIONS },
  '--action': { type: 'words', words: ACTIONS },
  '--scope': { type: 'words', words: SCOPES },
  '--format': { type: 'words', words: ['yaml', 'json'] },
  '--service': { type: 'words', words: ['hub', 'governance', 'audit', 'registry:'] },
  '--method': { type: 'words', words: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] },
  '--policy': { type: 'live', what: 'policies' },
  '--team': { type: 'live', what: 'teams' },
};

/** Values of arguments by name (`<policy>`, `<token>`, `[action]`, `<key>`). */
const ARGUMENT_VALUES: Record<string, ValueKind> = {
  policy: { type: 'live', what: 'policies' },
  token: { type: 'live', what: 'tokens' },
  team: { type: 'live', what: 'teams' },
  action: { type: 'words', words: ACTIONS },
  key: { type: 'words', words: Object.keys(PROFILE_KEYS) },
};

interface Node {
  path: string;
  subcommands: { name: string; description: string }[];
  options: { flag: string; long: string; description: string; takesValue: boolean; value: ValueKind }[];
  /** Fixed values of its arguments (`completion <shell>`: bash, zsh, fish). */
  choices: string[];
  /** What completes each argument, by position. */
  positionals: ValueKind[];
}

function valueOfOption(long: string, choices: readonly string[] | undefined): ValueKind {
  if (choices && choices.length > 0) return { type: 'words', words: choices };
  return OPTION_VALUES[long] ?? { type: 'none' };
}

function nodesOf(program: Command): Node[] {
  const nodes: Node[] = [];
  const help = program.createHelp();
  const visit = (cmd: Command, path: string[]) => {
    const subs = help.visibleCommands(cmd).filter((c) => c.name() !== 'help');
    nodes.push({
      path: path.join(' '),
      subcommands: subs.map((c) => ({ name: c.name(), description: c.description() })),
      options: cmd.options
        .filter((o) => !o.hidden)
        .flatMap((o) => {
          const flags = [o.long, o.short].filter((f): f is string => Boolean(f));
          const takesValue = o.required || o.optional;
          const long = o.long ?? o.short ?? '';
          return flags.map((flag) => ({
            flag,
            long,
            description: o.description,
            takesValue,
            value: takesValue ? valueOfOption(long, o.argChoices) : ({ type: 'none' } as const),
          }));
        }),
      choices: cmd.registeredArguments.flatMap((a) => a.argChoices ?? []),
      positionals: cmd.registeredArguments.map((a) =>
        a.argChoices
          ? { type: 'words', words: a.argChoices }
          : (ARGUMENT_VALUES[a.name()] ?? { type: 'none' }),
      ),
    });
    for (const sub of subs) visit(sub, [...path, sub.name()]);
  };
  visit(program, []);
  return nodes;
}

/** Options that take a value, so the scripts skip their values when finding the command path. */
function valueFlags(nodes: Node[]): string[] {
  return [...new Set(nodes.flatMap((n) => n.options.filter((o) => o.takesValue).map((o) => o.flag)))].sort();
}

export function generateCompletion(program: Command, shell: Shell): string {
  const nodes = nodesOf(program);
  const globals = nodes[0]!.options.map((o) => o.flag);
  switch (shell) {
    case 'bash':
      return bash(nodes, globals);
    case 'zsh':
      return zsh(nodes, globals);
    case 'fish':
      return fish(nodes);
  }
}

function caseArms(nodes: Node[], globals: string[]): string {
  return nodes
    .map((n) => {
      const words = [
        ...n.subcommands.map((s) => s.name),
        ...n.choices,
        ...n.options.map((o) => o.flag),
        ...(n.path ? globals : []),
      ];
      return `    "${n.path}") cands="${[...new Set(words)].join(' ')}" ;;`;
    })
    .join('\n');
}

/** A value kind as the scripts' `mode` and `cands`: file, dir, live:WHAT, or words. */
function kindAction(kind: ValueKind): string {
  switch (kind.type) {
    case 'file':
      return 'mode=file';
    case 'dir':
      return 'mode=dir';
    case 'live':
      return `mode=live:${kind.what}`;
    case 'words':
      return `cands="${kind.words.join(' ')}"`;
    case 'none':
      return ':';
  }
}

/**
 * The arms that complete a value: after a value option (`cmdpath|flag`, global options as `*|flag`)
 * and in an argument's place (`cmdpath#index`).
 */
function valueArms(nodes: Node[]): { options: string; positionals: string } {
  const root = nodes[0]!;
  const globalFlags = new Set(root.options.map((o) => o.flag));
  const options: string[] = [];
  // A command's own options first: the global options' arms match any command path.
  for (const n of [...nodes.slice(1), root]) {
    const byAction = new Map<string, string[]>();
    for (const o of n.options) {
      if (!o.takesValue || (n !== root && globalFlags.has(o.flag))) continue;
      const action = kindAction(o.value);
      const pattern = n === root ? `*"|${o.flag}"` : `"${n.path}|${o.flag}"`;
      byAction.set(action, [...(byAction.get(action) ?? []), pattern]);
    }
    for (const [action, patterns] of byAction)
      if (action !== ':') options.push(`      ${patterns.join('|')}) ${action} ;;`);
  }
  const positionals: string[] = [];
  for (const n of nodes) {
    if (n.subcommands.length > 0) continue;
    n.positionals.forEach((kind, i) => {
      if (kind.type !== 'none') positionals.push(`      "${n.path}#${i}") ${kindAction(kind)} ;;`);
    });
  }
  return { options: options.join('\n'), positionals: positionals.join('\n') };
}

function pathFinder(nodes: Node[]): string {
  const known = nodes.map((n) => `"${n.path}"`).join(' ');
  // Not named `path` or `words`: zsh ties `path` to PATH and `words` is its completion array.
  // Every local declared once, before the loop: zsh prints a variable that `local` declares again.
  // It also finds the argument index (npos), the option whose value is being typed (prev), and the
  // --org and --profile given, which `hubctl __complete` is run with.
  return `  local cmdpath="" w i k next found skip=0 npos=0 prevopt="" prev="" org="" profile=""
  local -a known=(${known})
  for ((i = 1; i < cword; i++)); do
    w="\${cwords[i]}"
    if ((skip)); then
      skip=0
      case "$prevopt" in --org) org="$w" ;; --profile) profile="$w" ;; esac
      continue
    fi
    case " ${valueFlags(nodes).join(' ')} " in *" $w "*) skip=1; prevopt="$w"; continue ;; esac
    [[ "$w" == -* ]] && continue
    next="\${cmdpath:+$cmdpath }$w"
    found=0
    for k in "\${known[@]}"; do [[ "$k" == "\\"$next\\"" || "$k" == "$next" ]] && found=1; done
    if ((found)) && ((npos == 0)); then cmdpath="$next"; else npos=$((npos + 1)); fi
  done
  ((skip)) && prev="$prevopt"`;
}

/** The shared decision: `mode` (file, dir, live:WHAT or empty) and `cands` for the word at the cursor. */
function chooser(nodes: Node[], globals: string[]): string {
  const arms = valueArms(nodes);
  return `  local cands="" mode=""
  if [[ -n "$prev" ]]; then
    case "$cmdpath|$prev" in
${arms.options}
    esac
  else
    case "$cmdpath" in
${caseArms(nodes, globals)}
    esac
    if [[ "$cur" != -* ]]; then
      case "$cmdpath#$npos" in
${arms.positionals}
      esac
    fi
  fi`;
}

const LIVE_FUNCTION = `_hubctl_live() {
  # Names from the hub: a short timeout, a cache of at most 60 s, and silence when offline.
  HUBCTL_HTTP_TIMEOUT=3 command hubctl \${org:+--org "$org"} \${profile:+--profile "$profile"} __complete "$1" 2>/dev/null
}`;

function bash(nodes: Node[], globals: string[]): string {
  return `# bash completion for hubctl (generated by \`hubctl completion bash\`; do not edit)
${LIVE_FUNCTION}
_hubctl() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cword=$COMP_CWORD
  local -a cwords=("\${COMP_WORDS[@]}")
${pathFinder(nodes)}
${chooser(nodes, globals)}
  local IFS=$'\\n'
  case "$mode" in
    file) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
    dir) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -d -- "$cur")) ;;
    live:*) COMPREPLY=($(compgen -W "$(_hubctl_live "\${mode#live:}")" -- "$cur")) ;;
    *) IFS=$' \\t\\n'; COMPREPLY=($(compgen -W "$cands" -- "$cur")) ;;
  esac
}
complete -F _hubctl hubctl
`;
}

function zsh(nodes: Node[], globals: string[]): string {
  return `#compdef hubctl
# zsh completion for hubctl (generated by \`hubctl completion zsh\`; do not edit)
${LIVE_FUNCTION}
_hubctl() {
  local cword=$((CURRENT - 1)) cur="\${words[CURRENT]}"
  # zsh arrays start at 1: dropping the command name lines cwords[1..] up with bash's COMP_WORDS[1..].
  local -a cwords=("\${words[@]:1}")
${pathFinder(nodes)}
${chooser(nodes, globals)}
  case "$mode" in
    file) _files ;;
    dir) _files -/ ;;
    live:*) compadd -- \${(f)"$(_hubctl_live "\${mode#live:}")"} ;;
    *) compadd -- \${=cands} ;;
  esac
}
# Autoloaded from $fpath (the #compdef line): complete now; sourced: register the function.
if [[ "\${funcstack[1]}" == "_hubctl" ]]; then _hubctl "$@"; else compdef _hubctl hubctl; fi
`;
}

function fish(nodes: Node[]): string {
  const lines = [
    '# fish completion for hubctl (generated by `hubctl completion fish`; do not edit)',
    'complete -c hubctl -f',
  ];
  const quote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const live = (what: LiveKind) => `(HUBCTL_HTTP_TIMEOUT=3 hubctl __complete ${what} 2>/dev/null)`;
  const valueArgs = (kind: ValueKind): string => {
    switch (kind.type) {
      case 'file':
        return ' -r -F';
      case 'dir':
        return ` -x -a ${quote('(__fish_complete_directories)')}`;
      case 'words':
        return ` -x -a ${quote(kind.words.join(' '))}`;
      case 'live':
        return ` -x -a ${quote(live(kind.what))}`;
      case 'none':
        return ' -x';
    }
  };
  for (const n of nodes) {
    const parts = n.path ? n.path.split(' ') : [];
    const cond =
      parts.length === 0
        ? '__fish_use_subcommand'
        : `__fish_seen_subcommand_from ${parts[parts.length - 1]}${parts.length > 1 ? `; and __fish_seen_subcommand_from ${parts[0]}` : ''}`;
    for (const s of n.subcommands) {
      lines.push(`complete -c hubctl -n ${quote(cond)} -a ${s.name} -d ${quote(s.description)}`);
    }
    if (n.choices.length > 0)
      lines.push(`complete -c hubctl -n ${quote(cond)} -a ${quote(n.choices.join(' '))}`);
    if (n.subcommands.length === 0) {
      const args = n.positionals.filter((k) => k.type === 'words' || k.type === 'live');
      for (const k of args) {
        if (k.type === 'words' && n.choices.length > 0) continue;
        lines.push(
          `complete -c hubctl -n ${quote(cond)} -a ${quote(k.type === 'live' ? live(k.what) : (k as { words: readonly string[] }).words.join(' '))}`,
        );
      }
    }
    for (const o of n.options) {
      const flag = o.flag.startsWith('--') ? `-l ${o.flag.slice(2)}` : `-s ${o.flag.slice(1)}`;
      const scope = parts.length === 0 ? '' : `-n ${quote(cond)} `;
      lines.push(
        `complete -c hubctl ${scope}${flag}${o.takesValue ? valueArgs(o.value) : ''} -d ${quote(o.description)}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
