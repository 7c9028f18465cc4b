// Standard output written straight to its descriptor. Creating process.stdout costs a bare node
// start about 5 ms (it loads the stream and net machinery), a sixth of `policy eval`'s whole budget
// (bench/startup.mjs); on Linux process.stdout writes files, pipes and terminals synchronously
// anyway, so writing the descriptor ourselves changes no order and no timing. A descriptor that is
// non-blocking (EAGAIN) hands this and every later write to the real stream, which waits for it.
import { writeSync } from 'node:fs';

export class FdSink {
  /** Read by writers that pass bytes to a Node stream as they are (policy eval --batch). */
  readonly writableHighWaterMark = 64 * 1024;
  private stream: NodeJS.WritableStream | undefined;

  constructor(
    private readonly fd: number,
    private readonly openStream: () => NodeJS.WritableStream,
    /** A reader that went away (`hubctl … | head -1`): what to do, once. */
    private readonly onClosed: () => void,
  ) {}

  write(chunk: string | Uint8Array): boolean {
    if (this.stream) return this.stream.write(chunk);
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let done = 0;
    try {
      while (done < bytes.length) done += writeSync(this.fd, bytes, done);
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EPIPE') {
        this.onClosed();
        return true;
      }
      this.stream = this.openStream();
      return this.stream.write(bytes.subarray(done));
    }
  }

  /** 'drain' comes at once while writes are synchronous, and from the stream after a hand-over. */
  once(event: 'drain', listener: () => void): this {
    if (this.stream) this.stream.once(event, listener);
    else queueMicrotask(listener);
    return this;
  }
}
