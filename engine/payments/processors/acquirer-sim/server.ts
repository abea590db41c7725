/**
 * The acquirer simulator as an HTTP service (node:http, JSON): the acquirers
 * behind sim-a and sim-b, told apart by their API keys. Built but not started
 * by main.ts alone; tests start it in process on a free port.
 *
 *   POST /v1/payments                       Idempotency-Key required; sale, payout or refund
 *   GET  /v1/payments?idempotency_key=K     lookup by key; an unseen key is fenced
 *   GET  /v1/payments/{id}                  the payment now (a pending one turns final)
 *   POST /v1/payments/{id}/3ds              {"passed": bool}: the customer's 3-D Secure result
 *   GET  /healthz
 *   POST|DELETE /admin/faults               test mode only (faults.ts)
 */
import { timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Acquirers, invalidField, type Answer, type PaymentRequest } from "./acquirer.ts";
import { FaultSwitch, parseFault } from "./faults.ts";
import { Ledger } from "./ledger.ts";

export interface AcquirerSimOptions {
  /** Where the ledger lives. */
  dataDir: string;
  host?: string;
  /** 0: any free port. */
  port: number;
  /** API key by acquirer name (sim-a, sim-b). */
  keys: Record<string, string>;
  /** Enables /admin/faults. */
  testMode?: boolean;
  now?: () => number;
}

export interface AcquirerSim {
  url: string;
  port: number;
  close(): Promise<void>;
}

const MAX_BODY = 16 * 1024;

function send(res: ServerResponse, a: Answer): void {
  const text = JSON.stringify(a.body);
  res.writeHead(a.http, { "content-type": "application/json", "content-length": Buffer.byteLength(text) }).end(text);
}

const refuse = (http: number, error: string, message: string): Answer => ({ http, body: { error, message } });

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) throw new Error("body too large");
    chunks.push(c as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "null");
}

/** The acquirer an API key belongs to, compared in constant time. */
function acquirerOf(req: IncomingMessage, keys: Record<string, string>): string | undefined {
  const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? "");
  if (!m) return undefined;
  const given = Buffer.from(m[1]);
  let found: string | undefined;
  for (const [name, key] of Object.entries(keys)) {
    const k = Buffer.from(key);
    if (k.length === given.length && timingSafeEqual(k, given)) found = name;
  }
  return found;
}

export async function startAcquirerSim(opts: AcquirerSimOptions): Promise<AcquirerSim> {
  const ledger = new Ledger(opts.dataDir);
  await ledger.open();
  const acquirers = new Acquirers(ledger, opts.now);
  const faults = new FaultSwitch();

  async function route(req: IncomingMessage): Promise<Answer | undefined> {
    const url = new URL(req.url ?? "/", "http://sim");
    const path = url.pathname;
    if (path === "/healthz") return { http: 200, body: { status: "ok" } };
    if (path === "/admin/faults" && opts.testMode) {
      if (req.method === "DELETE") {
        faults.clear();
        return { http: 200, body: { cleared: true } };
      }
      if (req.method !== "POST") return refuse(405, "method_not_allowed", "POST or DELETE");
      const f = parseFault(await readJson(req));
      if ("field" in f) return refuse(400, "invalid_request", `invalid field ${f.field}`);
      faults.add(f);
      return { http: 201, body: { added: f.kind } };
    }
    if (!path.startsWith("/v1/payments")) return refuse(404, "not_found", "no such route");
    const acquirer = acquirerOf(req, opts.keys);
    if (!acquirer) return refuse(401, "unauthorized", "missing or unknown API key");

    if (path === "/v1/payments" && req.method === "POST") {
      const key = req.headers["idempotency-key"];
      if (typeof key !== "string" || key === "" || key.length > 64) return refuse(400, "invalid_request", "invalid header Idempotency-Key");
      const body = await readJson(req);
      const bad = invalidField(body);
      if (bad) return refuse(400, "invalid_request", `invalid field ${bad}`);
      const payment = body as PaymentRequest;
      const fault = faults.take(key, payment.card.number);
      if (fault?.kind === "5xx") return refuse(503, "service_unavailable", "simulated fault");
      const answer = await acquirers.pay(acquirer, key, payment);
      if (fault?.kind === "reset") {
        req.socket.destroy();
        return undefined;
      }
      if (fault?.kind === "timeout") await new Promise((r) => setTimeout(r, fault.delayMs).unref());
      return answer;
    }
    if (path === "/v1/payments" && req.method === "GET") {
      const key = url.searchParams.get("idempotency_key");
      if (!key) return refuse(400, "invalid_request", "invalid parameter idempotency_key");
      return acquirers.lookupByKey(acquirer, key);
    }
    const m = /^\/v1\/payments\/([A-Za-z0-9-]{1,64})(\/3ds)?$/.exec(path);
    if (!m) return refuse(404, "not_found", "no such route");
    if (m[2] && req.method === "POST") {
      const body = (await readJson(req)) as { passed?: unknown } | null;
      if (typeof body?.passed !== "boolean") return refuse(400, "invalid_request", "invalid field passed");
      return acquirers.completeChallenge(acquirer, m[1], body.passed);
    }
    if (!m[2] && req.method === "GET") return acquirers.lookupById(acquirer, m[1]);
    return refuse(405, "method_not_allowed", "this route takes another method");
  }

  const server: Server = createServer((req, res) => {
    route(req).then(
      (answer) => {
        if (answer && !res.destroyed) send(res, answer);
      },
      (err: Error) => {
        if (res.destroyed) return;
        // A body that is not JSON, or too large, is the caller's mistake; anything else is ours.
        if (err instanceof SyntaxError) send(res, refuse(400, "invalid_request", "the body is not JSON"));
        else if (err.message === "body too large") send(res, refuse(413, "invalid_request", "the body is over 16 KiB"));
        else send(res, refuse(500, "internal", "internal error"));
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host ?? "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${opts.host ?? "127.0.0.1"}:${port}`,
    port,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await ledger.close();
    },
  };
}
