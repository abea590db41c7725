/**
 * One HTTP POST to a merchant's platform, as every callback makes it: a
 * timeout on the whole call, redirects never followed, the reply read up to
 * 64 KiB, and the SSRF guard (request-filtering-agent: loopback, private,
 * link-local and metadata addresses refused at connect time, after DNS, so a
 * rebinding name cannot slip through) unless CASHIER_CALLBACK_ALLOW_PRIVATE=1.
 * It never throws: every failure is a SendResult with its reason.
 */
import http from "node:http";
import https from "node:https";
import { useAgent } from "request-filtering-agent";
/** What one HTTP attempt produced. */
export interface SendResult {
  /** 0 when no reply arrived. */
  httpStatus: number;
  body: string;
  /** Why no usable reply: timeout, connection refused, redirect...; "" otherwise. */
  error: string;
  /** The address was refused by the SSRF guard: nothing was sent. */
  refusedAddress: boolean;
  durationMs: number;
}

const MAX_REPLY_BYTES = 64 * 1024;

export interface SendRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

export type Send = (req: SendRequest) => Promise<SendResult>;

export function createSender(opts: { allowPrivate: boolean }): Send {
  return (req) =>
    new Promise<SendResult>((resolve) => {
      const started = performance.now();
      let settled = false;
      const done = (r: Omit<SendResult, "durationMs">) => {
        if (settled) return;
        settled = true;
        resolve({ ...r, durationMs: Math.round(performance.now() - started) });
      };
      let url: URL;
      try {
        url = new URL(req.url);
        if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error("not http(s)");
      } catch {
        done({ httpStatus: 0, body: "", error: "the callback URL is not an http(s) URL", refusedAddress: false });
        return;
      }
      const lib = url.protocol === "https:" ? https : http;
      const agent = opts.allowPrivate ? undefined : useAgent(req.url);
      const r = lib.request(url, {
        method: "POST",
        agent,
        headers: {
          "content-type": "application/json",
          "user-agent": "cashier-callbacks/1",
          ...req.headers,
          "content-length": String(Buffer.byteLength(req.body)),
        },
      });
      const timer = setTimeout(() => {
        done({ httpStatus: 0, body: "", error: `no reply within ${req.timeoutMs} ms`, refusedAddress: false });
        r.destroy();
      }, req.timeoutMs);
      r.on("error", (err: Error) => {
        clearTimeout(timer);
        const refused = /is not allowed/.test(err.message);
        done({ httpStatus: 0, body: "", error: refused ? `address refused: ${err.message}` : `no reply: ${err.message}`, refusedAddress: refused });
      });
      r.on("response", (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (c: Buffer) => {
          if (size < MAX_REPLY_BYTES) chunks.push(c);
          size += c.length;
        });
        res.on("error", () => {});
        res.on("end", () => {
          clearTimeout(timer);
          const status = res.statusCode ?? 0;
          const body = Buffer.concat(chunks).subarray(0, MAX_REPLY_BYTES).toString("utf8");
          const error = status >= 300 && status < 400 ? `HTTP ${status}: redirects are not followed` : "";
          done({ httpStatus: status, body, error, refusedAddress: false });
        });
      });
      r.end(req.body);
    });
}
