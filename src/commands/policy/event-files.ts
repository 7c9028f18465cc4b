// The NDJSON audit events that `policy replay` and `policy suggest` read: files, or `-` for stdin.
// Every file is opened before anything is decided or sent (a missing one is exit 2), then each is
// streamed in order through a LineSplitter, so a line is capped at MAX_EVENT_LINE bytes.
import { closeSync, createReadStream, openSync } from 'node:fs';
import { type LineSink, LineSplitter } from '../../audit/lines.js';
import type { Context } from '../../context.js';
import { cannotRead } from './sources.js';

/** An audit event line longer than this is skipped and counted (events are a few hundred bytes). */
export const MAX_EVENT_LINE = 1024 * 1024;

export class EventFiles {
  private constructor(
    private readonly paths: readonly string[],
    private readonly fds: Map<string, number>,
  ) {}

  /** Opens every named file now; closes what it opened and throws if one cannot be read. */
  static open(paths: readonly string[]): EventFiles {
    const fds = new Map<string, number>();
    try {
      for (const path of paths) {
        if (path === '-' || fds.has(path)) continue;
        try {
          fds.set(path, openSync(path, 'r'));
        } catch (err) {
          throw cannotRead(path, err, 'events file');
        }
      }
    } catch (err) {
      for (const fd of fds.values()) closeSync(fd);
      throw err;
    }
    return new EventFiles(paths, fds);
  }

  /** Streams every file, in the order named, a line at a time into the sink `sinkFor` gives it. */
  async readLines(ctx: Context, sinkFor: (path: string) => LineSink): Promise<void> {
    for (const path of this.paths) {
      const splitter = new LineSplitter(sinkFor(path), MAX_EVENT_LINE);
      const source =
        path === '-'
          ? ctx.io.stdin
          : createReadStream('', { fd: this.fds.get(path)!, highWaterMark: 1024 * 1024, autoClose: false });
      try {
        for await (const chunk of source)
          splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
      } catch (err) {
        throw cannotRead(path, err, 'events file');
      }
      splitter.end();
    }
  }

  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
  }
}
