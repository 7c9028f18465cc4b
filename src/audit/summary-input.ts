// `audit summary --input FILE…` and `--local`: NDJSON files counted without building each event.
// PURE but for the files' chunks it is handed.
//
// The lines are split as readNdjson splits them (a chunk at a time, LF with an optional CR before it,
// empty lines skipped, a line over the cap refused as soon as the chunk holding it is split, before
// any line of that chunk is judged), and the first line that is not a JSON object is refused with
// parseLine's sentence. Each line is read in place by EventFieldReader when it is in the simple
// form that reader is sure of; any other line (not ASCII, an escape, a duplicate or oddly typed
// field, anything doubtful) is parsed whole and read as before (readAuditRecord, groupValue).
// Both give the counter, and the filters, the same values.
import { isAscii } from 'node:buffer';
import { EventFieldReader, type EventFields } from './event-fields.js';
import { blockEnd } from './lines.js';
import { lineTooLong, MAX_LINE_BYTES, parseLine } from './ndjson.js';
import { type AuditQuery, hasConditions, recordMatches } from './query.js';
import { decisionName, readAuditRecord } from './record.js';
import type { SummaryCounter, SummaryKey } from './summary.js';

export interface InputFile {
  name: string;
  open: () => AsyncIterable<Buffer | string>;
}

/** Counts the events of the files matching the query; `progress` is told the count after each chunk. */
export async function summarizeFiles(
  files: readonly InputFile[],
  query: AuditQuery,
  counter: SummaryCounter,
  by: SummaryKey,
  progress: (events: number) => void = () => {},
  maxBytes = MAX_LINE_BYTES,
): Promise<void> {
  const lines = new SummaryLines(counter, by, query, maxBytes);
  for (const file of files) {
    lines.begin(file.name);
    for await (const chunk of file.open()) {
      lines.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      progress(lines.kept);
    }
    lines.end();
  }
}

/** The lines of one file after another, counted; throws the first error readNdjson would. */
export class SummaryLines {
  private name = '';
  private carry: Buffer | undefined;
  private lineNo = 0;
  private readonly reader = new EventFieldReader();
  private readonly check: boolean;
  /** Events counted (matching the query). */
  kept = 0;

  constructor(
    private readonly counter: SummaryCounter,
    private readonly by: SummaryKey,
    private readonly query: AuditQuery,
    private readonly maxBytes = MAX_LINE_BYTES,
  ) {
    this.check = hasConditions(query);
  }

  begin(name: string): void {
    this.name = name;
    this.carry = undefined;
    this.lineNo = 0;
  }

  push(chunk: Buffer): void {
    // The first line of the chunk that is no JSON object: thrown once the chunk is split (a line
    // over the cap after it in the chunk is the error readNdjson gives); no line after it is counted.
    let bad: Error | undefined;
    let from = 0;
    if (this.carry !== undefined) {
      // the line begun in an earlier chunk, made whole (readNdjson joins the whole chunk to it)
      const nl = chunk.indexOf(10);
      const first = Buffer.concat([this.carry, nl < 0 ? chunk : chunk.subarray(0, nl + 1)]);
      this.carry = undefined;
      if (nl < 0) {
        if (first.length > this.maxBytes) throw lineTooLong(this.name, this.lineNo + 1, this.maxBytes);
        this.carry = first;
        return;
      }
      bad = this.lines(first, 0, first.length - 1, bad);
      from = nl + 1;
    }
    const last = chunk.lastIndexOf(10);
    if (last >= from) bad = this.lines(chunk, from, last, bad);
    const rest = Math.max(from, last + 1);
    if (rest < chunk.length) {
      if (chunk.length - rest > this.maxBytes) throw lineTooLong(this.name, this.lineNo + 1, this.maxBytes);
      // A copy: the chunk is not kept alive for the sake of its last few bytes.
      this.carry = Buffer.from(chunk.subarray(rest));
    }
    if (bad !== undefined) throw bad;
  }

  /** The lines of buf[from, last] (last: a LF), a block at a time; the first bad line's error. */
  private lines(buf: Buffer, from: number, last: number, bad: Error | undefined): Error | undefined {
    while (from <= last) {
      const to = blockEnd(buf, from, last);
      if (bad === undefined && isAscii(buf.subarray(from, to + 1))) bad = this.asciiBlock(buf, from, to);
      else bad = this.block(buf, from, to, bad);
      from = to + 1;
    }
    return bad;
  }

  /** The last line, when the file does not end with a newline. */
  end(): void {
    const rest = this.carry;
    this.carry = undefined;
    if (rest === undefined || rest.length === 0) return;
    this.lineNo++;
    const stop = rest[rest.length - 1] === 13 ? rest.length - 1 : rest.length;
    if (stop > this.maxBytes) throw lineTooLong(this.name, this.lineNo, this.maxBytes);
    if (stop > 0) {
      const bad = this.parsed(rest.toString('utf8', 0, stop));
      if (bad !== undefined) throw bad;
    }
  }

  /** The lines of buf[from, to] (to: a LF), all ASCII, read in place; the first bad line's error. */
  private asciiBlock(buf: Buffer, from: number, to: number): Error | undefined {
    const bytes = buf.subarray(from, to + 1);
    const text = buf.toString('latin1', from, to + 1);
    const n = to - from;
    let bad: Error | undefined;
    for (let start = 0; start <= n; ) {
      const nl = text.indexOf('\n', start);
      this.lineNo++;
      const end = nl > start && bytes[nl - 1] === 13 ? nl - 1 : nl;
      if (end - start > this.maxBytes) throw lineTooLong(this.name, this.lineNo, this.maxBytes);
      if (bad === undefined && end > start) {
        const e = this.reader.read(text, start, end, bytes);
        if (e === undefined) bad = this.parsed(text.slice(start, end));
        else this.fast(e);
      }
      start = nl + 1;
    }
    return bad;
  }

  /** The lines of buf[from, to] decoded one by one (not ASCII, or after a bad line: only split). */
  private block(buf: Buffer, from: number, to: number, bad: Error | undefined): Error | undefined {
    for (let start = from; start <= to; ) {
      const nl = buf.indexOf(10, start);
      this.lineNo++;
      const end = nl > start && buf[nl - 1] === 13 ? nl - 1 : nl;
      if (end - start > this.maxBytes) throw lineTooLong(this.name, this.lineNo, this.maxBytes);
      if (bad === undefined && end > start) bad = this.parsed(buf.toString('utf8', start, end));
      start = nl + 1;
    }
    return bad;
  }

  /** A line read in place. */
  private fast(e: EventFields): void {
    if (this.check && !recordMatches(e, this.query)) return;
    this.kept++;
    let value: string | undefined;
    switch (this.by) {
      case 'resource':
        value = e.resource;
        break;
      case 'agent':
        value = e.agent;
        break;
      case 'user':
        value = e.user;
        break;
      case 'decision':
        value = e.decision === undefined ? undefined : decisionName(e.decision);
        break;
      case 'action':
        value = e.actionType;
        break;
      case 'session':
        value = e.session;
        break;
      case 'mode':
        value = e.mode;
        break;
    }
    this.counter.count(value, e.decision, e.time);
  }

  /** A line read as readNdjson and readFileBatches read it; the error when it is no JSON object. */
  private parsed(line: string): Error | undefined {
    let value: Record<string, unknown>;
    try {
      value = parseLine(line, this.name, this.lineNo);
    } catch (err) {
      return err as Error;
    }
    if (this.check) {
      const record = readAuditRecord(value);
      if ('invalid' in record || !recordMatches(record, this.query)) return undefined;
    }
    this.kept++;
    this.counter.add(value);
    return undefined;
  }
}
