/**
 * A platform's reply is read up to MAX_REPLY_BYTES and no further: one
 * platform answering 10 MB (or an endless stream) once made the engine read
 * gigabytes, since the sender kept the first 64 KiB but read on to the end.
 * Past the bound the sender stops reading and closes the connection; what was
 * read is judged as it is (reply-ack.ts, validation-codec.ts): JSON is
 * self-delimiting, so a cut reply parses only when the platform's object ended
 * within the bound, and a cut one that does not parse is unparsable like any other.
 */

/** The most of a reply's body the engine reads (docs/operations.md, callbacks; docs/integration.md, replies). */
export const MAX_REPLY_BYTES = 64 * 1024;

/** A reply's body as it arrives, kept up to `limit` bytes; `push` says whether to go on reading. */
export class BoundedBody {
  readonly #limit: number;
  readonly #chunks: Buffer[] = [];
  #size = 0;
  #cut = false;

  constructor(limit = MAX_REPLY_BYTES) {
    this.#limit = limit;
  }

  /** Keeps what fits; false once the body reached the bound (or went past it), when reading must stop. */
  push(chunk: Buffer): boolean {
    const room = this.#limit - this.#size;
    if (chunk.length > room) this.#cut = true;
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.#chunks.push(kept);
    this.#size += kept.length;
    return !this.#cut;
  }

  /** True when the body went past the bound: more arrived than was kept. */
  get cut(): boolean {
    return this.#cut;
  }

  /** The bytes kept, as UTF-8 text (a character cut at the bound becomes U+FFFD). */
  text(): string {
    return Buffer.concat(this.#chunks, this.#size).toString("utf8");
  }
}
