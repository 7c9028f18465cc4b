// The one output layer: data to stdout, messages to stderr. Tables are cli-table3 boxes on a TTY
// and tab-separated lines when piped; --json prints documented objects and never table text.
// chalk and cli-table3 are loaded only when something is actually styled or boxed.
// Every text goes through escapeControl on its way out (terminal safety): a command cannot print a
// server's escape sequence or forge a line. Colour is the one exception, and it can only come from
// style(), whose Styled values no server answer or file can produce.
import { escapeControl, escapeLines, safeJson } from './escape.js';
import type { IO } from './io.js';
import type { JqFilter } from './jq.js';

export type Cell = string | number | boolean | null | undefined;

/** Text coloured by style(): its own text already escaped, its colour codes kept. */
export class Styled {
  constructor(readonly rendered: string) {}
}

/** What line() prints: plain text (escaped), styled text, or a sequence of both. */
export type Text = string | Styled | readonly Text[];

function render(text: Text): string {
  if (typeof text === 'string') return escapeControl(text);
  if (text instanceof Styled) return text.rendered;
  return text.map(render).join('');
}

export interface Column {
  header: string;
  /** Right-align numbers in TTY tables. */
  align?: 'left' | 'right';
}

export type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan';

export interface OutputOptions {
  json: boolean;
  quiet: boolean;
  color: boolean;
  /** --jq: every JSON document printed goes through this filter (src/output/jq.ts). */
  jq?: JqFilter;
}

export interface Output {
  readonly json: boolean;
  readonly quiet: boolean;
  readonly isTTY: boolean;
  /** A JSON document on stdout (2-space indent, trailing newline); through --jq's filter when given. */
  printJson(value: unknown): void;
  /**
   * A list command's --json: always a JSON array of the items, whether one page, every page or a
   * filtered set (what a script's `jq '.[]'` reads). Paging belongs in hint(), on stderr.
   */
  printList(items: readonly unknown[]): void;
  /** One line of data on stdout; control characters in it are escaped (a newline too). */
  line(text?: Text): void;
  /**
   * A document exactly as it came (a manifest for --raw), when piped: its digest stays checkable.
   * On a terminal, its line breaks are kept and every other control character escaped.
   */
  verbatim(text: string): void;
  /** A table of rows on stdout: boxed on a TTY, tab-separated (no header) when piped. */
  table(columns: (string | Column)[], rows: Cell[][]): Promise<void>;
  /** "key: value" lines for one object; aligned on a TTY, tab-separated when piped. */
  fields(pairs: [string, Cell][]): Promise<void>;
  /** A progress or status message on stderr; silent with --quiet or --json. */
  info(text: string): void;
  /** A warning on stderr; shown even with --quiet, but not in --json mode. */
  warn(text: string): void;
  /**
   * A note about the data printed (more pages, a limit reached) on stderr: with --json too, since a
   * script needs it as much as a person does; silent with --quiet.
   */
  hint(text: string): void;
  /** Colours text when colour is on; print it with line(). */
  style(text: string, ...styles: Style[]): Promise<Styled>;
  /** ISO 8601 off a TTY; a short local form on one. */
  time(iso: string | null | undefined): string;
}

export function createOutput(io: IO, options: OutputOptions): Output {
  let chalkPromise: Promise<typeof import('chalk').default> | undefined;
  const chalk = () => {
    chalkPromise ??= import('chalk').then((m) => new m.Chalk({ level: 1 }));
    return chalkPromise;
  };
  const paint = async (text: string, ...styles: Style[]): Promise<string> => {
    const safe = escapeControl(text);
    if (!options.color || styles.length === 0) return safe;
    let c = await chalk();
    for (const s of styles) c = c[s];
    return c(safe);
  };
  const style = async (text: string, ...styles: Style[]) => new Styled(await paint(text, ...styles));
  const cellText = (cell: Cell): string =>
    cell === null || cell === undefined ? '' : escapeControl(String(cell));

  const output: Output = {
    json: options.json,
    quiet: options.quiet,
    isTTY: io.stdoutIsTTY,
    printList(items) {
      output.printJson(Array.isArray(items) ? items : [...items]);
    },
    printJson(value) {
      if (!options.jq) {
        io.stdout.write(`${safeJson(value, 2)}\n`);
        return;
      }
      const { text, error } = options.jq.apply(value);
      // Piped, exactly what `jq -r` prints; on a terminal, escaped as any text (tabs and lines kept).
      if (text !== '') io.stdout.write(io.stdoutIsTTY ? escapeKeepingTabs(text) : text);
      if (error) throw error;
    },
    line(text = '') {
      io.stdout.write(`${render(text)}\n`);
    },
    verbatim(text) {
      const shown = io.stdoutIsTTY ? escapeLines(text) : text;
      io.stdout.write(shown.endsWith('\n') ? shown : `${shown}\n`);
    },
    async table(columns, rows) {
      const cols = columns.map((c) => (typeof c === 'string' ? { header: c } : c));
      if (!io.stdoutIsTTY) {
        for (const row of rows) io.stdout.write(`${row.map(cellText).join('\t')}\n`);
        return;
      }
      const { default: Table } = await import('cli-table3');
      const head = await Promise.all(cols.map((c) => paint(c.header, 'bold')));
      const table = new Table({
        head,
        colAligns: cols.map((c) => c.align ?? 'left'),
        style: { head: [], border: options.color ? ['grey'] : [] },
        chars: BORDERLESS,
      });
      for (const row of rows) table.push(row.map(cellText));
      io.stdout.write(`${table.toString()}\n`);
    },
    async fields(pairs) {
      if (!io.stdoutIsTTY) {
        for (const [k, v] of pairs) io.stdout.write(`${escapeControl(k)}\t${cellText(v)}\n`);
        return;
      }
      const width = Math.max(...pairs.map(([k]) => k.length));
      for (const [k, v] of pairs) {
        io.stdout.write(`${await paint(`${k}:`.padEnd(width + 1), 'bold')} ${cellText(v)}\n`);
      }
    },
    info(text) {
      if (options.quiet || options.json) return;
      io.stderr.write(`${escapeControl(text)}\n`);
    },
    warn(text) {
      if (options.json) return;
      io.stderr.write(`${escapeControl(text)}\n`);
    },
    hint(text) {
      if (options.quiet) return;
      io.stderr.write(`${escapeControl(text)}\n`);
    },
    style,
    time(iso) {
      if (!iso) return '';
      if (!io.stdoutIsTTY) return iso;
      const d = new Date(iso);
      if (Number.isNaN(d.getTime())) return iso;
      return d
        .toISOString()
        .replace('T', ' ')
        .replace(/\.\d+Z$/, 'Z');
    },
  };
  return output;
}

/** --jq's raw text on a terminal: control characters escaped, its line breaks and tabs (@tsv) kept. */
function escapeKeepingTabs(text: string): string {
  return text
    .split('\n')
    .map((line) => line.split('\t').map(escapeControl).join('\t'))
    .join('\n');
}

const BORDERLESS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};
