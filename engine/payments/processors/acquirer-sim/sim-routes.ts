/**
 * The API of the acquirers behind sim-a and sim-b (told apart by their API
 * keys), the fault switch and the health check: the simulator's first
 * dialect, at the root of its paths.
 *
 *   POST /v1/payments                       Idempotency-Key required; sale, payout or refund
 *   GET  /v1/payments?idempotency_key=K     lookup by key; an unseen key is fenced
 *   GET  /v1/payments/{id}                  the payment now (a pending one turns final)
 *   POST /v1/payments/{id}/3ds              {"passed": bool}: the customer's 3-D Secure result
 *   GET  /healthz
 *   POST|DELETE /admin/faults               test mode only (faults.ts)
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { type Acquirers, invalidField, type PaymentRequest } from "./acquirer.ts";
import type { Dialect } from "./dialect.ts";
import { type FaultSwitch, parseFault } from "./faults.ts";
import { type Answer, parseJson, readRaw } from "./http.ts";

const MAX_BODY = 16 * 1024;

const refuse = (http: number, error: string, message: string): Answer => ({ http, body: { error, message } });

const readJson = async (req: IncomingMessage) => parseJson(await readRaw(req, MAX_BODY));

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

/** sim-a and sim-b's routes, and the admin ones (faults only in test mode). */
export function simDialect(deps: {
  acquirers: Acquirers;
  faults: FaultSwitch;
  keys: Record<string, string>;
  testMode: boolean;
  admin?: Dialect["route"];
}): Dialect {
  const { acquirers, faults, keys } = deps;

  async function route(req: IncomingMessage, url: URL): Promise<Answer | undefined> {
    const path = url.pathname;
    if (path === "/healthz") return { http: 200, body: { status: "ok" } };
    if (path === "/admin/faults" && deps.testMode) {
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
    if (path.startsWith("/admin/") && deps.testMode && deps.admin) return deps.admin(req, url);
    if (!path.startsWith("/v1/payments")) return refuse(404, "not_found", "no such route");
    const acquirer = acquirerOf(req, keys);
    if (!acquirer) return refuse(401, "unauthorized", "missing or unknown API key");

    if (path === "/v1/payments" && req.method === "POST") {
      const key = req.headers["idempotency-key"];
      if (typeof key !== "string" || key === "" || key.length > 64) return refuse(400, "invalid_request", "invalid header Idempotency-Key");
      const body = await readJson(req);
      const bad = invalidField(body);
      if (bad) return refuse(400, "invalid_request", `invalid field ${bad}`);
      const payment = body as PaymentRequest;
      // A refund without a card (one made in the Backoffice) takes no card-keyed fault.
      const fault = faults.take(key, payment.card?.number);
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

  return {
    prefix: "",
    route,
    refusal: (kind) =>
      ({
        unavailable: refuse(503, "service_unavailable", "the acquirer could not record the request; nothing was taken"),
        not_json: refuse(400, "invalid_request", "the body is not JSON"),
        too_large: refuse(413, "invalid_request", "the body is over 16 KiB"),
        internal: refuse(500, "internal", "internal error"),
      })[kind],
  };
}
