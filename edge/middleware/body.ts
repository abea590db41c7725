/**
 * Reads a request body up to a size and a deadline, for the JSON and the form
 * readers (json-body.ts, form-body.ts), which answer each failure in their own
 * form. Too large: the rest is read and dropped (so that the refusal reaches
 * the client). Too slow (BODY_TIMEOUT_MS from the first read, time-limits.ts):
 * reading stops and the answer must close the connection (tooSlow() says
 * so), since the rest of the body may still be on its way. A client that goes
 * away mid-body rejects, as the stream does.
 */
import type { IncomingMessage } from "node:http";
import type { Context } from "koa";
import { BODY_TIMEOUT_MS } from "./time-limits.ts";

export type BodyRead = { ok: true; bytes: Buffer } | { ok: false; why: "tooLarge" | "tooSlow" };

/** The body of `req`, at most `maxBytes`, all of it within `deadlineMs`. */
export function readBody(req: IncomingMessage, maxBytes: number, deadlineMs = BODY_TIMEOUT_MS): Promise<BodyRead> {
  if (req.readableEnded) return Promise.resolve({ ok: true, bytes: Buffer.alloc(0) });
  return new Promise<BodyRead>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (done: () => void) => {
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      done();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) {
        chunks.push(chunk);
        return;
      }
      settle(() => {
        req.resume();
        resolve({ ok: false, why: "tooLarge" });
      });
    };
    const onEnd = () => settle(() => resolve({ ok: true, bytes: Buffer.concat(chunks) }));
    const onError = (err: Error) => settle(() => reject(err));
    const timer = setTimeout(
      () =>
        settle(() => {
          req.pause();
          // The connection is cut once the answer is out; the cut is no error of ours.
          req.on("error", () => {});
          resolve({ ok: false, why: "tooSlow" });
        }),
      deadlineMs,
    );
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

/** The answer to a body that came too slowly closes its connection: the rest of it may still be arriving. */
export function closeAfterAnswer(ctx: Context): void {
  ctx.set("Connection", "close");
}
