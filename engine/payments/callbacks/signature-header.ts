/**
 * X-Cashier-Signature for the bodies that carry no signature member
 * (UpdatePayout, RecordFailedDeposit): `t=<epoch seconds>,v1=<hex
 * HMAC-SHA384 of "<t>.<raw body bytes>">` with the merchant secret, made at
 * send time so a platform can refuse a stale replay.
 */
import { hmacHex, type HmacKey } from "../../shared/hmac.ts";

/** The headers every callback carries: the event id (the same on every resend) and the merchant. */
export function callbackHeaders(eventId: string, merchantId: string): Record<string, string> {
  return { "x-cashier-event-id": eventId, "x-cashier-merchant-id": merchantId };
}

export function signatureHeader(key: HmacKey, body: string, nowSeconds: number): string {
  return `t=${nowSeconds},v1=${hmacHex(key, `${nowSeconds}.${body}`)}`;
}
