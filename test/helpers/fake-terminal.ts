import { Writable } from 'node:stream';

/** A stream that says it is a terminal, as process.stderr does on one; it keeps what is drawn on it. */
export class FakeTerminal extends Writable {
  readonly isTTY = true;
  readonly columns = 120;
  drawn = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void) {
    this.drawn += String(chunk);
    callback();
  }

  /** As the CLI's io takes it. */
  asStream(): NodeJS.WriteStream {
    return this as unknown as NodeJS.WriteStream;
  }
}
