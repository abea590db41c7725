/**
 * Who is calling: the merchant named by merchant_id, proven by the body's
 * HMAC-SHA384 signature and a timestamp within 60 s of our clock (CONTRACT
 * section 2). Order matters: a missing merchant_id or timestamp (400), an
 * unknown merchant, a missing signature, a wrong signature, then time (401):
 * each refusal names the first cause a platform can act on (an unsigned
 * request to a merchant_id that does not exist is refused for the merchant).
 */
import { describeViolations, domainError, type DomainError, type FieldViolation } from "../../shared/errors.ts";
import type { KeyObject } from "node:crypto";
import { verifyHmac } from "../../shared/hmac.ts";
import type { Merchant, MerchantDirectory } from "../ports/merchants.ts";

export const TIMESTAMP_WINDOW_SECONDS = 60;

export interface WireSignature {
  canonical: string;
  signature: string;
  /** The members the interface does not define, name -> value as signed: part of the order's parameters. */
  unknownMembers?: Readonly<Record<string, string>>;
}

/** The secrets a merchant's signature may use now: the current one, and the previous while its overlap lasts. */
export function acceptedKeys(merchant: Merchant, now: Date): KeyObject[] {
  const previousValid = merchant.previousKey !== null && merchant.previousKeyExpiresAt !== null && now < merchant.previousKeyExpiresAt;
  return previousValid ? [merchant.signingKey, merchant.previousKey!] : [merchant.signingKey];
}

const signedBy = (merchant: Merchant, wire: WireSignature, now: Date) => acceptedKeys(merchant, now).some((k) => verifyHmac(k, wire.canonical, wire.signature));

/** Without a merchant_id or a timestamp a request is malformed (400): nobody can be authenticated. */
export function missingCaller(merchantId: string, timestamp: number | undefined): DomainError | undefined {
  const missing: FieldViolation[] = [];
  if (merchantId === "") missing.push({ field: "merchantId", description: "is required" });
  if (timestamp === undefined) missing.push({ field: "timestamp", description: "is required (epoch seconds)" });
  return missing.length > 0 ? domainError("INVALID_FIELDS", describeViolations(missing), missing) : undefined;
}

export async function authenticate(
  merchants: MerchantDirectory,
  merchantId: string,
  timestamp: number | undefined,
  wire: WireSignature,
  now: Date,
): Promise<{ ok: true; merchant: Merchant } | { ok: false; error: DomainError }> {
  const problem = missingCaller(merchantId, timestamp);
  if (problem) return { ok: false, error: problem };
  let merchant = await merchants.get(merchantId);
  if (!merchant) return { ok: false, error: domainError("UNKNOWN_MERCHANT", "Unknown merchant_id") };
  if (wire.signature === "") {
    return { ok: false, error: domainError("SIGNATURE_INVALID", "signature is required (HMAC-SHA384 of the canonical string with the merchant secret)") };
  }
  let signed = signedBy(merchant, wire, now);
  if (!signed) {
    // The secret may have been rotated through another engine since this one cached it.
    merchant = (await merchants.get(merchantId, { fresh: true })) ?? merchant;
    signed = signedBy(merchant, wire, now);
  }
  if (!signed) {
    return {
      ok: false,
      error: domainError("SIGNATURE_INVALID", "signature does not match the request (HMAC-SHA384 of the canonical string with the merchant secret)"),
    };
  }
  // Whole seconds on both sides: exactly 60 s early or late is still inside.
  const skew = Math.abs(Math.floor(now.getTime() / 1000) - timestamp!);
  if (!Number.isFinite(skew) || skew > TIMESTAMP_WINDOW_SECONDS) {
    return {
      ok: false,
      error: domainError(
        "TIMESTAMP_OUT_OF_WINDOW",
        `timestamp is more than ${TIMESTAMP_WINDOW_SECONDS} s from the service's clock (now ${Math.floor(now.getTime() / 1000)})`,
      ),
    };
  }
  return { ok: true, merchant };
}

/**
 * The merchant a request names. A request from the HTTP edge carries the
 * body's signature and is authenticated; an internal gRPC caller's has none
 * (its bearer token already admitted it) and the merchant is looked up, absent
 * when unknown, for the rules to name.
 */
export async function merchantOfRequest(
  merchants: MerchantDirectory,
  merchantId: string,
  timestamp: number | undefined,
  wire: WireSignature | undefined,
  now: Date,
): Promise<{ ok: true; merchant: Merchant | undefined } | { ok: false; error: DomainError }> {
  if (wire) return authenticate(merchants, merchantId, timestamp, wire, now);
  return { ok: true, merchant: merchantId ? await merchants.get(merchantId) : undefined };
}
