/**
 * The acquirer simulator's durable record of what it answered, as an acquirer
 * keeps one: an append-only JSON-lines file shared by every dialect (sim-a and
 * sim-b, Checkout.com, Adyen). An entry counts only once it is on disk: it is
 * written at the file's known good end, fdatasync'ed, and only then applied to
 * the dialects' memory and its answer sent (group commit: the entries that
 * arrive while one fdatasync runs share the next one). A write that fails
 * (a full disk) is cut back off the file and rejected with LedgerUnavailable,
 * which every dialect answers as 503: nothing it held was acknowledged. At
 * start a torn last line (a crash or a full disk mid-write) is dropped with a
 * log line, so the next entry never lands on it. One simulator writes it at
 * a time (ledger-lock.ts). It holds no card number and no CVV (CONTRACT
 * section 8): only what was decided.
 */
import { closeSync, constants, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { dirname, join } from "node:path";
import { lockLedger } from "./ledger-lock.ts";

/** One line of the ledger; `t` names its kind, and the dialect that reads it. */
export interface Entry {
  t: string;
  readonly [field: string]: unknown;
}

/** Where the ledger reports what it recovered or could not write (a pino logger fits). */
export interface LedgerLog {
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

const SILENT: LedgerLog = { warn() {}, error() {} };

/** A write that did not reach the disk: the request it served is answered 503 and nothing of it counts. */
export class LedgerUnavailable extends Error {
  constructor(cause: unknown) {
    super(`the ledger could not be written: ${(cause as Error)?.message ?? cause}`, { cause });
    this.name = "LedgerUnavailable";
  }
}

interface Pending {
  entries: Entry[];
  done: (err?: Error) => void;
}

export class Ledger {
  readonly #file: string;
  readonly #log: LedgerLog;
  #fd: FileHandle | undefined;
  #apply: (e: Entry) => void = () => {};
  /** Bytes of whole, acknowledged lines: where the next write goes. */
  #size = 0;
  /** A failed write may have left bytes past #size that could not be cut off yet. */
  #dirty = false;
  #queue: Pending[] = [];
  #flushing: Promise<void> | undefined;
  #unlock: (() => void) | undefined;

  constructor(dir: string, log: LedgerLog = SILENT) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.#file = join(dir, "ledger.jsonl");
    this.#log = log;
  }

  /** The ledger file's path (tests read it). */
  get file(): string {
    return this.#file;
  }

  /**
   * Reads the file back, hands every entry to `apply` (which keeps it for the
   * entries appended later), recovers a torn last line, and opens for writing.
   */
  async open(apply: (e: Entry) => void): Promise<void> {
    const unlock = await lockLedger(`${this.#file}.lock`);
    try {
      this.#apply = apply;
      const { entries, size } = this.#recover();
      for (const e of entries) apply(e);
      this.#size = size;
      this.#fd = await open(this.#file, constants.O_WRONLY | constants.O_CREAT, 0o600);
      // The file's name must be as durable as its lines.
      const dir = await open(dirname(this.#file), "r");
      await dir.sync().finally(() => dir.close());
    } catch (err) {
      await this.#fd?.close();
      this.#fd = undefined;
      unlock();
      throw err;
    }
    this.#unlock = unlock;
  }

  /** Waits for the writes under way, then closes the file. */
  async close(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    await this.#fd?.close();
    this.#fd = undefined;
    this.#unlock?.();
    this.#unlock = undefined;
  }

  /**
   * Writes the entries together (all or none), and resolves once they are on
   * disk and applied; rejects with LedgerUnavailable, applying none, if not.
   */
  append(...entries: Entry[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ entries, done: (err) => (err ? reject(err) : resolve()) });
      this.#flushing ??= this.#flush().finally(() => (this.#flushing = undefined));
    });
  }

  async #flush(): Promise<void> {
    while (this.#queue.length > 0) {
      const batch = this.#queue;
      this.#queue = [];
      const bytes = Buffer.from(batch.flatMap((b) => b.entries.map((e) => `${JSON.stringify(e)}\n`)).join(""));
      try {
        const fd = this.#fd;
        if (!fd) throw new Error("the ledger is closed");
        if (this.#dirty) await this.#cutBack(fd);
        await writeAll(fd, bytes, this.#size);
        await fd.datasync();
        this.#size += bytes.length;
      } catch (err) {
        this.#dirty = true;
        this.#log.error(
          { err: (err as Error).message, entries: batch.reduce((n, b) => n + b.entries.length, 0) },
          "ledger write failed: answered 503, nothing recorded",
        );
        if (this.#fd) await this.#cutBack(this.#fd).catch(() => {});
        for (const b of batch) b.done(new LedgerUnavailable(err));
        continue;
      }
      for (const b of batch) for (const e of b.entries) this.#apply(e);
      for (const b of batch) b.done();
    }
  }

  /** Cuts whatever a failed write left past the last acknowledged line. */
  async #cutBack(fd: FileHandle): Promise<void> {
    await fd.truncate(this.#size);
    await fd.datasync();
    this.#dirty = false;
  }

  /**
   * The entries on disk and the length of their whole lines. A last line with
   * no newline was never acknowledged: it is cut off, with a log line. A whole
   * line that does not parse is a torn line a writer before this one appended
   * onto: the entry written after the tear is kept if it parses; anything else
   * stops the start rather than guess.
   */
  #recover(): { entries: Entry[]; size: number } {
    let text: Buffer;
    try {
      text = readFileSync(this.#file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      return { entries: [], size: 0 };
    }
    const end = text.lastIndexOf(0x0a) + 1;
    if (end < text.length) {
      this.#log.warn({ file: this.#file, bytes: text.length - end }, "ledger: dropped a torn last line (never acknowledged)");
      const fd = openSync(this.#file, "r+");
      try {
        ftruncateSync(fd, end);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
    }
    const entries: Entry[] = [];
    const lines = text.subarray(0, end).toString("utf8").split("\n");
    lines.forEach((line, i) => {
      if (line.trim() === "") return;
      const entry = parseEntry(line) ?? salvage(line);
      if (!entry) throw new Error(`${this.#file} line ${i + 1} is damaged and is not a torn last line: repair or move the file`);
      if (entry.kept < line.length) {
        this.#log.warn({ file: this.#file, line: i + 1, bytes: line.length - entry.kept }, "ledger: dropped a torn line that the next entry was written onto");
      }
      entries.push(entry.entry);
    });
    return { entries, size: end };
  }
}

function parseEntry(line: string): { entry: Entry; kept: number } | undefined {
  try {
    const e = JSON.parse(line) as Entry;
    return typeof e === "object" && e !== null && typeof e.t === "string" ? { entry: e, kept: line.length } : undefined;
  } catch {
    return undefined;
  }
}

/** The whole entry after a tear, from the last `{"t":` of the line, if it parses. */
function salvage(line: string): { entry: Entry; kept: number } | undefined {
  const at = line.lastIndexOf('{"t":');
  if (at <= 0) return undefined;
  const found = parseEntry(line.slice(at));
  return found && { entry: found.entry, kept: line.length - at };
}

/** One positional write may be short (a nearly full disk): write the rest, until an error says why not. */
async function writeAll(fd: FileHandle, bytes: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await fd.write(bytes, done, bytes.length - done, position + done);
    if (bytesWritten === 0) throw new Error("the disk took no bytes");
    done += bytesWritten;
  }
}
