/**
 * Builds signed seed 2.1 bodies the way a platform would, independently of the
 * service's own code (its own canonical string and HMAC), and posts them.
 */
import { SECRET } from "./merchants.ts";
import { canonical as canonicalOf, signatureOf, type Body } from "./signer.ts";

export type { Body } from "./signer.ts";

/** A request's canonical string; object members are written as text (to build bodies the service refuses). */
export const canonical = (body: Body): string => canonicalOf(body, "stringify");

export function sign(body: Body, secret = SECRET): Body {
  return { ...body, signature: signatureOf(body, secret, "stringify") };
}

let counter = 0;
export function orderId(prefix = "ord"): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now()}-${counter}`;
}

export function saleBody(over: Body = {}): Body {
  return {
    merchant_id: "m-test",
    frontend: "test-usd",
    order_id: orderId(),
    transaction_type: "sale",
    amount: 1050,
    currency: "USD",
    card_number: "4111111111111111",
    cvv: "123",
    card_exp: "12/2030",
    pin: "cust-42",
    email: "jane@example.com",
    first_name: "Jane",
    last_name: "Doe",
    country: "GB",
    zip: "SW1A1AA",
    return_url: "https://merchant.example/return",
    timestamp: Math.floor(Date.now() / 1000),
    version: "1.0",
    ...over,
  };
}

export interface Reply {
  http: number;
  body: Record<string, any>;
  text: string;
}

export async function post(baseUrl: string, body: unknown, opts: { contentType?: string; raw?: string; secret?: string } = {}): Promise<Reply> {
  const payload = opts.raw ?? JSON.stringify(body);
  const res = await fetch(`${baseUrl}/api/process`, {
    method: "POST",
    headers: { "content-type": opts.contentType ?? "application/json" },
    body: payload,
  });
  const text = await res.text();
  let parsed: Record<string, any> = {};
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = {};
  }
  return { http: res.status, body: parsed, text };
}

export async function processSale(baseUrl: string, over: Body = {}, secret = SECRET): Promise<Reply> {
  return post(baseUrl, sign(saleBody(over), secret));
}

/** True when the reply's signature is the merchant's HMAC of its other members. */
export function replySigned(reply: Record<string, any>, secret = SECRET): boolean {
  return reply.signature === signatureOf(reply, secret, "stringify");
}
