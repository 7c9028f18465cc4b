// The one output layer: data to stdout, messages to stderr. Tables are cli-table3 boxes on a TTY
// and tab-separated lines when piped; --json prints documented objects and never table text.
// chalk and cli-table3 are loaded only when something is actually styled or boxed.
import type { IO } from './io.js';

export type Cell = string | number | boolean | null | undefined;

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
}

export interface Output {
  readonly json: boolean;
  readonly quiet: boolean;
  readonly isTTY: boolean;
  /** A JSON document on stdout (2-space indent, trailing newline). */
  printJson(value: unknown): void;
  /** One line of data on stdout. */
  line(text?: string): void;
  /** A table of rows on stdout: boxed on a TTY, tab-separated (no header) when piped. */
  table(columns: (string | Column)[], rows: Cell[][]): Promise<void>;
  /** "key: value" lines for one object; aligned on a TTY, tab-separated when piped. */
  fields(pairs: [string, Cell][]): Promise<void>;
  /** A progress or status message on stderr; silent with --quiet or --json. */
  info(text: string): void;
  /** A warning on stderr; shown even with --quiet, but not in --json mode. */
  warn(text: string): void;
  /** Colours text when colour is on; returns it unchanged otherwise. */
  style(text: string, ...styles: Style[]): Promise<string>;
  /** ISO 8601 off a TTY; a short local form on one. */
  time(iso: string | null | undefined): string;
}

export function createOutput(io: IO, options: OutputOptions): Output {
  let chalkPromise: Promise<typeof import('chalk').default> | undefined;
  const chalk = () => {
    chalkPromise ??= import('chalk').then((m) => new m.Chalk({ level: 1 }));
    return chalkPromise;
  };
  const style = async (text: string, ...styles: Style[]): Promise<string> => {
    if (!options.color || styles.length === 0) return text;
    let c = await chalk();
    for (const s of styles) c = c[s];
    return c(text);
  };
  const cellText = (cell: Cell): string => (cell === null || cell === undefined ? '' : String(cell));

  return {
    json: options.json,
    quiet: options.quiet,
    isTTY: io.stdoutIsTTY,
    printJson(value) {
      io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    },
    line(text = '') {
      io.stdout.write(`${text}\n`);
    },
    async table(columns, rows) {
      const cols = columns.map((c) => (typeof c === 'string' ? { header: c } : c));
      if (!io.stdoutIsTTY) {
        for (const row of rows) io.stdout.write(`${row.map((c) => tsvSafe(cellText(c))).join('\t')}\n`);
        return;
      }
      const { default: Table } = await import('cli-table3');
      const head = await Promise.all(cols.map((c) => style(c.header, 'bold')));
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
        for (const [k, v] of pairs) io.stdout.write(`${k}\t${tsvSafe(cellText(v))}\n`);
        return;
      }
      const width = Math.max(...pairs.map(([k]) => k.length));
      for (const [k, v] of pairs) {
        io.stdout.write(`${await style(`${k}:`.padEnd(width + 1), 'bold')} ${cellText(v)}\n`);
      }
    },
    info(text) {
      if (options.quiet || options.json) return;
      io.stderr.write(`${text}\n`);
    },
    warn(text) {
      if (options.json) return;
      io.stderr.write(`${text}\n`);
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
}

// Tab-separated output must stay one record a line and one field a tab.
function tsvSafe(text: string): string {
  return text.replace(/[\t\r\n]/g, ' ');
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
