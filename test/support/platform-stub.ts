/**
 * The merchant platform's side of every callback Cashier sends (README, "Callbacks to the platform"), as a small real HTTP
 * server: tests point merchants' URLs at it and assert on what arrived; `npm run platform-stub` runs it
 * for a demo. It verifies signatures with its own canonical string and HMAC, written from CONTRACT
 * section 2 and not imported from the engine, so that an independent reading of the contract checks ours.
 */
import { timingSafeEqual } from "node:crypto";
import { canonical as canonicalString, hmacHex } from "./signer.ts";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The four calls Cashier makes to a platform. */
export type CallbackKind = "validation" | "update_payout" | "record_failed_deposit" | "notification";

/** One call as it arrived, with the verdict on its signature and the reply the stub chose. */
export interface ReceivedCall {
  kind: CallbackKind;
  /** Path and query string as requested. */
  path: string;
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  rawBody: string;
  /** The parsed JSON body, or undefined when it was not JSON. */
  body: unknown;
  signatureValid: boolean;
  signatureError?: string;
  eventId: string | null;
  merchantId: string | null;
  receivedAt: Date;
  /** httpStatus null when the reply hangs; body is the raw text when the script sent `raw`. */
  reply: { httpStatus: number | null; body: unknown; delayMs?: number; hang?: boolean };
}

/** How to answer one call; members left out come from the default reply (or the 401 for a bad signature). */
export interface ScriptedReply {
  status?: number;
  description?: string;
  /** Default 200 (401 when the request's signature was invalid). */
  httpStatus?: number;
  delayMs?: number;
  /** Accept the call and never answer it; close() releases it. */
  hang?: boolean;
  /** Send this text as the body, as is (e.g. "not json"). */
  raw?: string;
  /** Validation only: sign the reply with a wrong key. */
  badSignature?: boolean;
  /** Validation only: leave the signature member out. */
  omitSignature?: boolean;
  /** Extra members added to the reply body (signed with the others in a Validation reply). */
  members?: Record<string, unknown>;
  /** Extra response headers (a Location for a redirect, say). */
  headers?: Record<string, string>;
}

export interface PlatformStubOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** merchant_id -> secret. */
  secrets: Record<string, string>;
  /** Largest accepted distance between the X-Cashier-Signature `t` and the clock; default 300 s. */
  toleranceSeconds?: number;
  /** Called with every recorded call (the runnable stub prints them). */
  onRecord?: (call: ReceivedCall) => void;
  /** Called when a customer lands on the return page. */
  onReturn?: (path: string) => void;
}

export interface WaitOptions {
  timeoutMs?: number;
  count?: number;
}

/** The canonical string and HMAC of CONTRACT section 2, as a platform writes them (test/support/signer.ts). */
export { canonical as canonicalString, hmacHex } from "./signer.ts";

/** Constant-time comparison of two hex MACs, either case; false for anything that is not 96 hex digits. */
function macMatches(expectedHex: string, givenHex: unknown): boolean {
  if (typeof givenHex !== "string" || !/^[0-9a-fA-F]{96}$/.test(givenHex)) return false;
  return timingSafeEqual(Buffer.from(expectedHex, "hex"), Buffer.from(givenHex, "hex"));
}

const DEFAULTS: Record<CallbackKind, { status: number; description: string }> = {
  validation: { status: 0, description: "ok" },
  notification: { status: 0, description: "received" },
  update_payout: { status: 0, description: "ok" },
  record_failed_deposit: { status: 0, description: "recorded" },
};

const MAX_BODY = 1024 * 1024;

function routeOf(method: string, pathname: string): CallbackKind | "return" | "events" | null {
  const last = pathname.slice(pathname.lastIndexOf("/") + 1);
  if (method === "GET") {
    if (pathname === "/events") return "events";
    if (pathname === "/return" || pathname.startsWith("/return/")) return "return";
    return null;
  }
  if (method !== "POST") return null;
  // A notification_url may end in anything; the platform endpoints are matched on their last segment so that
  // a merchant's platform_url may carry a prefix (`{platform_url}/RecordFailedDeposit`).
  // A Virtual Terminal sale's notifications go to {platform_url}/Notification (docs/backoffice-operations.md).
  if (pathname === "/notify" || pathname.startsWith("/notify/") || last === "Notification") return "notification";
  if (last === "validation") return "validation";
  if (last === "UpdatePayout") return "update_payout";
  if (last === "RecordFailedDeposit") return "record_failed_deposit";
  return null;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function returnPage(url: URL): string {
  const query = url.search.slice(1);
  const rows = [...url.searchParams].map(([k, v]) => `<li><code>${escapeHtml(k)}</code> = <code>${escapeHtml(v)}</code></li>`);
  return `<!doctype html><html><head><meta charset="utf-8"><title>Back at the merchant</title></head><body>
<h1>Back at the merchant</h1>
<p>Query string: <code>${escapeHtml(query) || "(none)"}</code></p>
<ul>${rows.join("")}</ul>
</body></html>\n`;
}

/** One line per call, for timeout messages: enough to see what arrived instead of what was awaited. */
export function describeCall(call: ReceivedCall): string {
  const sig = call.signatureValid ? "signature ok" : `signature BAD (${call.signatureError})`;
  const body = call.rawBody.length > 300 ? `${call.rawBody.slice(0, 300)}...` : call.rawBody;
  return `${call.kind} ${call.path} merchant=${call.merchantId ?? "?"} event=${call.eventId ?? "?"} ${sig} body=${body}`;
}

interface Waiter {
  kind: CallbackKind;
  predicate: (call: ReceivedCall) => boolean;
  count: number;
  resolve: (calls: ReceivedCall[]) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * A platform that answers Cashier's callbacks and remembers them. Replies can be scripted per kind to
 * play a slow, broken or refusing platform; close() also ends calls left hanging so that tests finish.
 */
export class PlatformStub {
  #server: Server | undefined;
  #url = "";
  #secrets = new Map<string, string>();
  #tolerance = 300;
  #onRecord: PlatformStubOptions["onRecord"];
  #onReturn: PlatformStubOptions["onReturn"];
  #calls: ReceivedCall[] = [];
  #scripts = new Map<CallbackKind, ScriptedReply[]>();
  #waiters = new Set<Waiter>();
  #timers = new Set<NodeJS.Timeout>();
  #closed = false;

  /** Base URL, e.g. http://127.0.0.1:9000 (no trailing slash). */
  get url(): string {
    return this.#url;
  }

  async start(opts: PlatformStubOptions): Promise<this> {
    for (const [id, secret] of Object.entries(opts.secrets)) this.#secrets.set(id, secret);
    this.#tolerance = opts.toleranceSeconds ?? 300;
    this.#onRecord = opts.onRecord;
    this.#onReturn = opts.onReturn;
    const host = opts.host ?? "127.0.0.1";
    const server = createServer(
      (req, res) =>
        void this.#handle(req, res).catch((err) => {
          if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
          res.end(JSON.stringify({ error: `platform stub failed: ${(err as Error).message}` }));
        }),
    );
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(opts.port ?? 0, host, () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    this.#url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
    return this;
  }

  /** Adds or replaces a merchant's secret while running. */
  setSecret(merchantId: string, secret: string): void {
    this.#secrets.set(merchantId, secret);
  }

  /** Calls received since the start or the last clear(), oldest first, optionally of one kind. */
  received(kind?: CallbackKind): ReceivedCall[] {
    return this.#calls.filter((c) => kind === undefined || c.kind === kind);
  }

  /** Forgets received calls and queued scripts. */
  clear(): void {
    this.#calls = [];
    this.#scripts.clear();
  }

  /** Queues replies for the next calls of a kind, used in order; then the default reply again. */
  script(kind: CallbackKind, ...replies: ScriptedReply[]): void {
    this.#scripts.set(kind, [...(this.#scripts.get(kind) ?? []), ...replies]);
  }

  /**
   * Resolves with the matching calls (already received ones count) once `count` of them arrived; on
   * timeout rejects with a message listing every call that did arrive.
   */
  waitFor(kind: CallbackKind, predicate?: ((call: ReceivedCall) => boolean) | WaitOptions, opts: WaitOptions = {}): Promise<ReceivedCall[]> {
    if (typeof predicate === "object") [opts, predicate] = [predicate, undefined];
    const test = predicate ?? (() => true);
    const count = opts.count ?? 1;
    const timeoutMs = opts.timeoutMs ?? 15000;
    const matching = () => this.#calls.filter((c) => c.kind === kind && test(c));
    let now: ReceivedCall[];
    try {
      now = matching();
    } catch (err) {
      return Promise.reject(err);
    }
    if (now.length >= count) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        kind,
        predicate: test,
        count,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.#waiters.delete(waiter);
          const got = matching().length;
          const all = this.#calls.map((c, i) => `  ${i + 1}. ${describeCall(c)}`);
          reject(
            new Error(
              `platform stub: timed out after ${timeoutMs} ms waiting for ${count} ${kind} call(s)` +
                `${predicate ? " matching the predicate" : ""}; ${got} matched. ` +
                (all.length ? `Received ${all.length} call(s):\n${all.join("\n")}` : "Received no calls at all."),
            ),
          );
        }, timeoutMs),
      };
      this.#waiters.add(waiter);
    });
  }

  /** Stops listening, ends hanging and delayed calls, and rejects pending waitFor()s. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const w of this.#waiters) {
      clearTimeout(w.timer);
      w.reject(new Error(`platform stub closed while waiting for ${w.kind}`));
    }
    this.#waiters.clear();
    const server = this.#server;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://stub");
    const route = routeOf(req.method ?? "", url.pathname);
    if (route === null) return send(res, 404, JSON.stringify({ error: "not found", method: req.method, path: url.pathname }));
    if (route === "events") return send(res, 200, JSON.stringify(this.#calls, null, 2));
    if (route === "return") {
      this.#onReturn?.(req.url ?? "/");
      return send(res, 200, returnPage(url), "text/html; charset=utf-8");
    }
    const raw = await readBody(req);
    if (raw === null) return send(res, 413, JSON.stringify({ error: "body over 1 MiB" }));
    const call = this.#verify(route, req, raw);
    const script = this.#scripts.get(route)?.shift() ?? {};
    const reply = this.#reply(route, call, script);
    call.reply = { httpStatus: script.hang ? null : reply.httpStatus, body: script.hang ? null : reply.body };
    if (script.delayMs) call.reply.delayMs = script.delayMs;
    if (script.hang) call.reply.hang = true;
    this.#record(call);
    if (script.hang) return; // close() destroys the socket.
    for (const [name, value] of Object.entries(script.headers ?? {})) res.setHeader(name, value);
    if (script.delayMs) {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        send(res, reply.httpStatus, reply.text);
      }, script.delayMs);
      this.#timers.add(timer);
      return;
    }
    send(res, reply.httpStatus, reply.text);
  }

  #verify(kind: CallbackKind, req: IncomingMessage, raw: Buffer): ReceivedCall {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
    }
    const rawBody = raw.toString("utf8");
    let body: unknown;
    try {
      body = JSON.parse(rawBody);
    } catch {
      body = undefined;
    }
    const headerMerchant = headers["x-cashier-merchant-id"] ?? null;
    const call: ReceivedCall = {
      kind,
      path: req.url ?? "/",
      headers,
      rawBody,
      body,
      signatureValid: false,
      eventId: headers["x-cashier-event-id"] ?? null,
      merchantId: headerMerchant,
      receivedAt: new Date(),
      reply: { httpStatus: null, body: null },
    };
    const error =
      kind === "validation" || kind === "notification"
        ? this.#checkBodySignature(call, headerMerchant)
        : this.#checkHeaderSignature(headers["x-cashier-signature"], headerMerchant, raw);
    if (error) call.signatureError = error;
    else call.signatureValid = true;
    return call;
  }

  /** Validation and notifications: the `signature` member over the canonical string of the body. */
  #checkBodySignature(call: ReceivedCall, headerMerchant: string | null): string | undefined {
    const body = call.body;
    if (typeof body !== "object" || body === null || Array.isArray(body)) return "body is not a JSON object";
    const members = body as Record<string, unknown>;
    const bodyMerchant = typeof members.merchant_id === "string" ? members.merchant_id : null;
    if (bodyMerchant !== null && headerMerchant !== null && bodyMerchant !== headerMerchant) {
      return `merchant_id ${bodyMerchant} in the body differs from X-Cashier-Merchant-Id ${headerMerchant}`;
    }
    const merchant = bodyMerchant ?? headerMerchant;
    call.merchantId = merchant;
    if (merchant === null) return "no merchant_id in the body and no X-Cashier-Merchant-Id header";
    const secret = this.#secrets.get(merchant);
    if (secret === undefined) return `unknown merchant ${merchant}`;
    if (members.signature === undefined || members.signature === null) return "no signature member";
    let canonical: string;
    try {
      canonical = canonicalString(members);
    } catch (err) {
      return `unsignable body: ${(err as Error).message}`;
    }
    return macMatches(hmacHex(secret, canonical), members.signature) ? undefined : "signature does not match";
  }

  /** UpdatePayout and RecordFailedDeposit: `t=<epoch>,v1=<hex>` over "<t>." + the raw body bytes. */
  #checkHeaderSignature(header: string | undefined, merchant: string | null, raw: Buffer): string | undefined {
    if (merchant === null) return "no X-Cashier-Merchant-Id header";
    const secret = this.#secrets.get(merchant);
    if (secret === undefined) return `unknown merchant ${merchant}`;
    if (header === undefined) return "no X-Cashier-Signature header";
    let t: string | undefined;
    const macs: string[] = [];
    for (const part of header.split(",")) {
      const eq = part.indexOf("=");
      if (eq < 0) return `malformed X-Cashier-Signature part "${part.trim()}"`;
      const name = part.slice(0, eq).trim();
      const value = part.slice(eq + 1).trim();
      if (name === "t") t = value;
      else if (name === "v1") macs.push(value);
    }
    if (t === undefined || !/^\d+$/.test(t)) return "X-Cashier-Signature has no t=<epoch seconds>";
    if (macs.length === 0) return "X-Cashier-Signature has no v1=<hex>";
    const skew = Math.abs(Math.floor(Date.now() / 1000) - Number(t));
    if (skew > this.#tolerance) return `X-Cashier-Signature t is ${skew} s from the clock (tolerance ${this.#tolerance} s)`;
    const expected = hmacHex(secret, Buffer.concat([Buffer.from(`${t}.`, "utf8"), raw]));
    return macs.some((mac) => macMatches(expected, mac)) ? undefined : "signature does not match";
  }

  #reply(kind: CallbackKind, call: ReceivedCall, script: ScriptedReply): { httpStatus: number; text: string; body: unknown } {
    const base = call.signatureValid ? { httpStatus: 200, ...DEFAULTS[kind] } : { httpStatus: 401, status: 4, description: "signature invalid" };
    const httpStatus = script.httpStatus ?? base.httpStatus;
    if (script.raw !== undefined) return { httpStatus, text: script.raw, body: script.raw };
    const status = script.status ?? base.status;
    const description = script.description ?? base.description;
    let body: Record<string, unknown> = kind === "record_failed_deposit" ? { Status: status, Description: description } : { status, description };
    if (kind === "validation" && call.signatureValid) {
      body = { ...body, timestamp: String(Math.floor(Date.now() / 1000)), version: "1.0", ...script.members };
      const secret = this.#secrets.get(call.merchantId!)!;
      if (!script.omitSignature) {
        body.signature = hmacHex(script.badSignature ? `${secret}-not-the-secret` : secret, canonicalString(body));
      }
    } else {
      body = { ...body, ...script.members };
    }
    return { httpStatus, text: JSON.stringify(body), body };
  }

  #record(call: ReceivedCall): void {
    this.#calls.push(call);
    this.#onRecord?.(call);
    for (const w of this.#waiters) {
      if (w.kind !== call.kind) continue;
      let matching: ReceivedCall[];
      try {
        matching = this.#calls.filter((c) => c.kind === w.kind && w.predicate(c));
      } catch (err) {
        clearTimeout(w.timer);
        this.#waiters.delete(w);
        w.reject(err as Error);
        continue;
      }
      if (matching.length >= w.count) {
        clearTimeout(w.timer);
        this.#waiters.delete(w);
        w.resolve(matching);
      }
    }
  }
}

/** Starts a stub in one call, for tests: `const stub = await startPlatformStub({ secrets })`. */
export function startPlatformStub(opts: PlatformStubOptions): Promise<PlatformStub> {
  return new PlatformStub().start(opts);
}

function send(res: ServerResponse, status: number, text: string, type = "application/json"): void {
  if (res.destroyed) return;
  res.writeHead(status, { "content-type": type, "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** The raw request bytes, or null past the size limit. */
async function readBody(req: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
