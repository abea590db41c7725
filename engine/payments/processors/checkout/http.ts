/**
 * One HTTP exchange with Checkout.com on a kept-alive connection, within a time
 * limit: node:http(s) with an Agent, as the simulators' connector does
 * (decision 0013). It resolves with the status and the parsed JSON body, or
 * rejects with an error named "TimeoutError" (no complete answer in time) or
 * "ResetError" (the answer was cut off): the caller reads both as `unknown`.
 */
import http from "node:http";
import https from "node:https";

export interface Answer {
  status: number;
  /** The parsed body; undefined when it was empty or not JSON. */
  body: unknown;
}

/** An Agent for one account's base URL: idle sockets closed after 30 s, before the other side closes them. */
export function agentFor(base: string): http.Agent {
  return new (base.startsWith("https:") ? https : http).Agent({ keepAlive: true, timeout: 30_000 });
}

function failure(name: string, message: string): Error {
  const err = new Error(message);
  err.name = name;
  return err;
}

export function exchange(
  agent: http.Agent,
  url: URL,
  method: "GET" | "POST",
  headers: Record<string, string | number>,
  body: string | undefined,
  timeoutMs: number,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = (url.protocol === "https:" ? https : http).request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        clearTimeout(timer);
        const text = Buffer.concat(chunks).toString("utf8");
        let parsed: unknown;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, body: parsed });
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
      reject(err);
    });
    req.end(body);
  });
}
