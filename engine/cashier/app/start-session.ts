/**
 * StartSession (the platform's `POST /api/session`): authenticate as Process
 * -> the rules of CONTRACT 9 (domain/hosted-session.ts) -> one session per
 * signed request. A repeat with the same parameters (timestamp and signature
 * may differ) answers the same session, its autologin address and auth_token
 * derived again from its nonce; a withdrawal's order_id used with other
 * parameters, or by an order already, is ORDER_CONFLICT.
 */
import { describeViolations, domainError, type DomainError } from "../../shared/errors.ts";
import { validateSessionStart, sessionControlCharacterViolations, type SessionStartInput } from "../domain/hosted-session.ts";
import { fingerprint } from "../../shared/hmac.ts";
import { authToken, autologinToken, newNonce, tokenHash } from "../../shared/session-tokens.ts";
import { merchantOfRequest, type WireSignature } from "../../payments/index.ts";
import type { CashierDeps, SessionRecord } from "../ports/ports.ts";
import type { Merchant } from "../../payments/index.ts";

export interface StartedSession {
  session: SessionRecord;
  redirectUrl: string;
  authToken: string;
  replayed: boolean;
  merchant: Merchant;
}

export type StartResult = ({ ok: true } & StartedSession) | { ok: false; error: DomainError };

const fail = (error: DomainError): StartResult => ({ ok: false, error });

const EMPTY_CUSTOMER = {
  pin: "",
  email: "",
  firstName: "",
  lastName: "",
  dob: "",
  phone: "",
  address: "",
  city: "",
  country: "",
  state: "",
  zip: "",
  requesterIp: "",
};

const conflict = (orderId: string, why: string) => domainError("ORDER_CONFLICT", `order_id ${orderId} ${why}`, [{ field: "orderId", description: why }]);

/** The autologin address: a page of the hosted Cashier under CASHIER_PUBLIC_URL. */
export function autologinUrl(deps: CashierDeps, token: string): string {
  return `${deps.publicUrl().replace(/\/+$/, "")}/cashier/autologin/${token}`;
}

export async function startSession(deps: CashierDeps, input: SessionStartInput, wire: WireSignature | undefined): Promise<StartResult> {
  const now = deps.now();
  const unprintable = sessionControlCharacterViolations(input);
  if (unprintable.length > 0) return fail(domainError("INVALID_FIELDS", describeViolations(unprintable), unprintable));
  const named = await merchantOfRequest(deps.merchants, input.merchantId, input.timestamp, wire, now);
  if (!named.ok) return fail(named.error);
  const merchant = named.merchant;
  const frontend = merchant?.frontends.find((f) => f.name === input.frontend);
  const violations = validateSessionStart(input, { frontend, now });
  if (!merchant && !violations.some((v) => v.field === "merchantId")) violations.unshift({ field: "merchantId", description: "names no merchant" });
  if (violations.length > 0 || !merchant || !input.intent || !frontend) return fail(domainError("INVALID_FIELDS", describeViolations(violations), violations));

  // The parameters: every member but the timestamp (and the signature, which is not in the input).
  const { timestamp: _t, ...parameters } = input;
  const fp = fingerprint(deps.keys.orderFingerprint, `session:${JSON.stringify(parameters)}`);
  const idempotencyKey = input.intent === "withdrawal" ? `w:${input.orderId}` : input.intent === "fields" ? `f:${fp}` : `d:${fp}`;
  // A fields session keeps only what its card form needs: the customer's pin, which its tokens are bound to.
  const fields = input.intent === "fields";
  const nonce = newNonce();
  const started = await deps.sessions.start(
    {
      merchantId: merchant.id,
      intent: input.intent,
      idempotencyKey,
      fingerprint: fp,
      nonce,
      autologinHash: tokenHash(deps.keys.tokenHash, "autologin", autologinToken(deps.keys.tokenHash, nonce)),
      frontend: frontend.name,
      currency: input.currency,
      amountMinor: fields ? null : (input.amountMinor ?? null),
      balanceMinor: input.intent === "withdrawal" ? (input.balanceMinor ?? null) : null,
      pin: input.customer.pin,
      customer: fields ? { ...EMPTY_CUSTOMER, pin: input.customer.pin } : input.customer,
      locale: input.locale,
      returnUrl: fields ? "" : input.returnUrl,
      notificationUrl: fields ? null : input.notificationUrl || null,
      orderId: input.intent === "withdrawal" ? input.orderId : null,
      scOrderId: fields ? null : input.scOrderId || null,
      udef1: fields ? null : input.udef1 || null,
      udef2: fields ? null : input.udef2 || null,
      expiresAt: new Date(now.getTime() + deps.sessionTtlSeconds * 1000),
    },
    now,
  );
  // Named by an order that no session made (a Process payout): this session could never pay it.
  if ("orderTaken" in started) return fail(conflict(input.orderId, "is already an order of this merchant"));
  if (!started.created && started.session.fingerprint !== fp) return fail(conflict(input.orderId, "was already used by this merchant with other parameters"));
  const s = started.session;
  return {
    ok: true,
    session: s,
    redirectUrl: autologinUrl(deps, autologinToken(deps.keys.tokenHash, s.nonce)),
    authToken: authToken(deps.keys.tokenHash, s.nonce),
    replayed: !started.created,
    merchant,
  };
}
