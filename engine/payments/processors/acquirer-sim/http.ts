/**
 * The simulator's HTTP plumbing, shared by its dialects: an answer as data
 * (status, JSON or HTML body, headers), the raw body read with a limit (the
 * raw bytes matter: Checkout.com's idempotency compares bodies), and the
 * writing of an answer.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export interface Answer {
  http: number;
  /** JSON; a string is sent as it is (HTML pages, Adyen's "[accepted]"). */
  body?: unknown;
  headers?: Record<string, string>;
}

/** A body over the dialect's limit: answered 413. */
export class BodyTooLarge extends Error {}

/** A request's raw body, refused past `max` bytes. */
export async function readRaw(req: IncomingMessage, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > max) throw new BodyTooLarge(`the body is over ${max} bytes`);
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The raw body as JSON; throws SyntaxError when it is not JSON. */
export function parseJson(raw: Buffer): unknown {
  return JSON.parse(raw.toString("utf8") || "null");
}

export function send(res: ServerResponse, a: Answer): void {
  const isText = typeof a.body === "string";
  const text = a.body === undefined ? "" : isText ? (a.body as string) : JSON.stringify(a.body);
  const headers: Record<string, string | number> = { "content-length": Buffer.byteLength(text), ...a.headers };
  if (a.body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === "content-type")) {
    headers["content-type"] = isText ? "text/plain; charset=utf-8" : "application/json";
  }
  res.writeHead(a.http, headers).end(text);
}

/** The request's base URL as the caller reached it: links and redirects in answers are absolute, as the acquirers' are. */
export function baseUrl(req: IncomingMessage): string {
  return `http://${req.headers.host ?? "127.0.0.1"}`;
}

/** A header's single value. */
export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
