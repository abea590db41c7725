/**
 * One HTTP exchange with an acquirer on a kept-alive connection, within a time
 * limit: node:http(s) with an Agent rather than fetch (measured 0.3 to 0.8 ms
 * less CPU per sale, decision 0013). Every connector's integration calls it.
 * It resolves with the status, the headers and the body's text, or rejects with
 * an error named "TimeoutError" (no complete answer in time) or "ResetError"
 * (the answer was cut off): a connector reads both as `unknown`, never declined.
 * A connection that could not be made (refused, no such host) rejects with
 * "NotSentError": not one byte of the request left, so the acquirer surely has
 * no payment of it (a connector may read it as not taken).
 */
import http from "node:http";
import https from "node:https";

export interface Exchanged {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** An Agent for one account's base URL: idle sockets closed after 30 s, before the other side closes them. */
export function agentFor(base: string): http.Agent {
  return new (base.startsWith("https:") ? https : http).Agent({ keepAlive: true, timeout: 30_000 });
}

/** The system calls of a connection being made: an error of one of them was raised before the request was written. */
const BEFORE_SENDING = new Set(["connect", "getaddrinfo"]);

function failure(name: string, message: string): Error {
  const err = new Error(message);
  err.name = name;
  return err;
}

export function exchange(
  agent: http.Agent,
  url: URL,
  method: string,
  headers: Record<string, string | number>,
  body: string | undefined,
  timeoutMs: number,
): Promise<Exchanged> {
  return new Promise((resolve, reject) => {
    const req = (url.protocol === "https:" ? https : http).request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") });
      });
      res.on("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
      res.on("close", () => {
        if (res.complete) return;
        clearTimeout(timer);
        reject(failure("ResetError", "the answer was cut off"));
      });
    });
    const timer = setTimeout(() => {
      const err = failure("TimeoutError", `no answer within ${timeoutMs} ms`);
      req.destroy(err);
      reject(err); // settled here, whatever the stream emits after a destroy
    }, timeoutMs);
    req.on("error", (err) => {
      clearTimeout(timer);
      const call = (err as NodeJS.ErrnoException).syscall;
      reject(call && BEFORE_SENDING.has(call) ? failure("NotSentError", `no connection (${(err as NodeJS.ErrnoException).code})`) : err);
    });
    req.end(body);
  });
}

/** A body's JSON, or undefined when it is empty or not JSON (an acquirer's error page, a proxy's). */
export function jsonOf(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
