/**
 * The hosted Cashier as a platform and the pages reach it: signed session
 * start bodies (`POST /api/session`, built with the test's own signer) and a
 * CashierService client with the service token.
 */
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { CashierService } from "../../gen/cashier/engine/v1/cashier_service_pb.js";
import { SECRET } from "./merchants.ts";
import { signatureOf, type Body } from "./signer.ts";
import { orderId, type Reply } from "./wire.ts";

export type CashierClient = Client<typeof CashierService>;

/** A CashierService client over gRPC with a bearer token (service.ts's SERVICE_TOKEN by default). */
export function cashierClient(engineUrl: string, token = "test-service-token-0123456789abcdef"): CashierClient {
  const auth: Interceptor = (next) => (req) => {
    req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
  return createClient(CashierService, createGrpcTransport({ baseUrl: engineUrl, interceptors: [auth] }));
}

/** A deposit session start of the test merchant (amount chosen by the customer); `over` replaces or adds members. */
export function sessionBody(over: Body = {}): Body {
  return {
    intent: "deposit",
    merchant_id: "m-test",
    frontend: "test-usd",
    currency: "USD",
    pin: `cust-${process.pid}`,
    email: "jane@example.com",
    first_name: "Jane",
    last_name: "Doe",
    country: "GB",
    return_url: "https://merchant.example/return",
    timestamp: Math.floor(Date.now() / 1000),
    version: "1.0",
    ...over,
  };
}

/** A withdrawal session start with a fresh order_id and a balance. */
export const withdrawalBody = (over: Body = {}): Body => sessionBody({ intent: "withdrawal", order_id: orderId("wd"), balance: 100_000, ...over });

/** Signs a body (members that are null are dropped from the canonical string, as the service does). */
export const signSession = (body: Body, secret = SECRET): Body => ({ ...body, signature: signatureOf(body, secret, "stringify") });

/** POSTs to /api/session: `body` signed unless `raw` is given. */
export async function postSession(
  baseUrl: string,
  body: Body,
  opts: { raw?: string; contentType?: string; secret?: string; unsigned?: boolean } = {},
): Promise<Reply> {
  const payload = opts.raw ?? JSON.stringify(opts.unsigned ? body : signSession(body, opts.secret));
  const res = await fetch(`${baseUrl}/api/session`, { method: "POST", headers: { "content-type": opts.contentType ?? "application/json" }, body: payload });
  const text = await res.text();
  let parsed: Record<string, any> = {};
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = {};
  }
  return { http: res.status, body: parsed, text };
}

/** The autologin token of a session start's redirect_url. */
export const autologinOf = (redirectUrl: string): string => redirectUrl.slice(redirectUrl.lastIndexOf("/") + 1);
