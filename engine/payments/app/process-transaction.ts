/**
 * The Process use case: authenticate -> validate -> load (frontend, refunded
 * sale) -> create the order idempotently -> the operators' blocks -> the merchant's risk rules -> Validation with the platform (when
 * the merchant has a validation_url) -> run the attempt -> answer. A repeat
 * with the same parameters answers the order's current attempt and processes
 * nothing; other parameters under a used order_id are ORDER_CONFLICT.
 * Process (`api`) and the hosted Cashier's forms (`customer`, in a session:
 * submit-deposit.ts, submit-withdrawal.ts) both come through here; the origin
 * only says who made the order, which auth_token Validation carries, and that
 * the platform, which saw no reply, is notified of every change and of the
 * first result, even one that stays as created (pending, requested).
 * A card token (CONTRACT 12) is opened into the request's card after the
 * merchant is known (card-token-use.ts) and used just before the order is
 * made, so a request refused for another field leaves it usable; only the
 * request that used it makes the order (a copy reads it, or is refused).
 */
import { cardBrand, maskCard } from "../../shared/card.ts";
import { DomainFailure, describeViolations, domainError, type DomainError, type FieldViolation } from "../../shared/errors.ts";
import { INITIAL_STATE, isFinal, stateOf } from "../domain/transitions.ts";
import type { Attempt, ProcessInput, TransactionType } from "../../shared/transaction.ts";
import { controlCharacterViolations, validateProcess } from "../domain/validate-process.ts";
import { fingerprint } from "../../shared/hmac.ts";
import { merchantOfRequest, type WireSignature } from "./authenticate.ts";
import type { CreateOrderResult, OrderDraft, RefundableSale } from "../ports/orders.ts";
import type { Merchant } from "../ports/merchants.ts";
import type { ProcessDeps } from "../ports/process-deps.ts";
import { advance } from "./advance.ts";
import { storedReturnUrl } from "./return-url.ts";
import { routeOrder } from "./route-order.ts";
import { runAttempt } from "./run-attempt.ts";
import type { Routing } from "../domain/routing.ts";
import { validateWithPlatform } from "./validate-with-platform.ts";
import { resolveCardToken, useCardToken, type TokenResolution } from "./card-token-use.ts";
import { blockedDecision, blockKeys, refusingBlock } from "../domain/blocks.ts";
import { refusingRiskRule } from "./risk-check.ts";
import { riskDecision } from "../domain/risk-rules.ts";
import { CARD_TOKEN_IN_FLIGHT } from "../domain/card-token.ts";

/**
 * Who makes the order. Absent: Process, `api`, a fresh auth_token per Validation. `backoffice:<login>`: the
 * Backoffice's Virtual Terminal, whose sale is sent MOTO (domain/moto.ts).
 */
export interface OrderOrigin {
  createdBy: "api" | "customer" | `backoffice:${string}`;
  /** The hosted Cashier session the order is made in. */
  session?: {
    ref: number;
    /** The session's auth_token, which every Validation of its transactions carries. */
    authToken: string;
    scOrderId: string | null;
    udef1: string | null;
    udef2: string | null;
  };
}

export type ProcessResult = { ok: true; attempt: Attempt; merchant: Merchant; replayed: boolean } | { ok: false; error: DomainError };

const fail = (error: DomainError): ProcessResult => ({ ok: false, error });

/** Members the interface does not define, in name order: part of the parameters only when there are some, so that every other order's fingerprint stays as it was. */
function unknownOf(wire: WireSignature | undefined): { unknownMembers?: [string, string][] } {
  const entries = Object.entries(wire?.unknownMembers ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return entries.length > 0 ? { unknownMembers: entries } : {};
}

function draftOf(
  input: ProcessInput,
  type: TransactionType,
  merchant: Merchant,
  deps: ProcessDeps,
  sale: RefundableSale | undefined,
  origin: OrderOrigin | undefined,
  wire: WireSignature | undefined,
  routing: Routing | undefined,
): OrderDraft {
  // The order's parameters for idempotency: every member but the timestamp and
  // the CVV, which must never reach the disk, not even inside a keyed hash.
  const { timestamp: _t, ...rest } = input;
  const parameters = { ...rest, card: { number: input.card.number, expiry: input.card.expiry }, ...unknownOf(wire) };
  const c = input.customer;
  return {
    merchantId: merchant.id,
    orderId: input.orderId,
    type,
    fingerprint: fingerprint(deps.keys.orderFingerprint, JSON.stringify(parameters)),
    amountMinor: input.amountMinor,
    currency: input.currency,
    frontend: input.frontend,
    pin: c.pin,
    customer: c,
    cardMasked: maskCard(input.card.number),
    cardBrand: cardBrand(input.card.number),
    cardExpiry: input.card.expiry,
    cardFingerprint: fingerprint(deps.keys.cardFingerprint, input.card.number),
    returnUrl: storedReturnUrl(deps, input.returnUrl, Boolean(origin?.session)),
    notificationUrl: input.notificationUrl || null,
    referenceTraceId: sale?.traceId ?? null,
    // A refund goes back through its sale's account; a sale or payout takes its routed cascade's first.
    processor: sale ? sale.processor : (routing?.cascade[0] ?? merchant.processors[0]),
    ...(routing ? { routing } : {}),
    initial: INITIAL_STATE[type],
    origin: origin && {
      createdBy: origin.createdBy,
      sessionRef: origin.session?.ref ?? null,
      scOrderId: origin.session?.scOrderId || null,
      udef1: origin.session?.udef1 || null,
      udef2: origin.session?.udef2 || null,
    },
  };
}

async function checkRefund(deps: ProcessDeps, merchant: Merchant, input: ProcessInput): Promise<{ sale: RefundableSale } | { error: DomainError }> {
  const sale = await deps.orders.findSale(merchant.id, input.referenceId);
  if (!sale)
    return {
      error: domainError("REFERENCE_NOT_FOUND", `reference_id ${input.referenceId} names no sale of this merchant`, [
        { field: "referenceId", description: "names no sale of this merchant" },
      ]),
    };
  if (sale.status !== "approved")
    return {
      error: domainError("REFERENCE_NOT_REFUNDABLE", `reference_id: the sale is ${sale.status}, only approved sales can be refunded`, [
        { field: "referenceId", description: `the sale is ${sale.status}` },
      ]),
    };
  if (sale.currency !== input.currency)
    return {
      error: domainError("REFERENCE_NOT_REFUNDABLE", `currency: the sale was in ${sale.currency}`, [
        { field: "currency", description: `must be the sale's currency ${sale.currency}` },
      ]),
    };
  if (fingerprint(deps.keys.cardFingerprint, input.card.number) !== sale.cardFingerprint) {
    return {
      error: domainError("REFERENCE_NOT_REFUNDABLE", "card_number: a refund goes back to the sale's card", [
        { field: "cardNumber", description: "must be the card of the refunded sale" },
      ]),
    };
  }
  return { sale };
}

/**
 * UNAVAILABLE when every account this operation would be sent to now is known to be down (a sale's whole cascade,
 * a refund's sale's account, an automatically approved payout's account); undefined otherwise. A manual payout
 * waits for an operator, and an account that is not known to be down is called: a refused connection there is
 * told apart by the connector (nothing sent: the cascade goes on).
 */
function unreachable(deps: ProcessDeps, merchant: Merchant, type: TransactionType, first: string, routing: Routing | undefined): DomainError | undefined {
  if (type === "payout" && merchant.payoutApproval === "manual") return undefined;
  const accounts = type === "sale" ? (routing?.cascade ?? merchant.processors) : [first];
  if (!accounts.every((name) => deps.processors.knownDown(name, merchant))) return undefined;
  return domainError("UNAVAILABLE", `processor ${accounts.join(", ")} is unavailable (its acquirer simulator is restarting); retry later`);
}

/** The card members a token stands in for: their rules give way to the token's own (a repeat's CVV is erased). */
const TOKEN_CARD_FIELDS = new Set(["cardNumber", "cvv", "cardExp"]);

/** The request's violations with its token's: a refused token is named instead of the card's members it replaces. */
function withTokenViolations(violations: FieldViolation[], token: TokenResolution): FieldViolation[] {
  if (token.kind === "none") return violations;
  if (token.kind === "refused") return [...violations.filter((v) => !TOKEN_CARD_FIELDS.has(v.field)), ...token.violations];
  return token.repeat ? violations.filter((v) => v.field !== "cvv") : violations;
}

export async function processTransaction(deps: ProcessDeps, sent: ProcessInput, wire: WireSignature | undefined, origin?: OrderOrigin): Promise<ProcessResult> {
  const now = deps.now();
  let input = sent;
  // A merchant_id holding a control character is never looked up: refused at once. Elsewhere, such a field is named
  // beside every other field at fault, in one answer (CONTRACT 3: the description names the offending fields).
  const unprintable = controlCharacterViolations(input);
  if (unprintable.some((v) => v.field === "merchantId")) return fail(domainError("INVALID_FIELDS", describeViolations(unprintable), unprintable));
  const named = await merchantOfRequest(deps.merchants, input.merchantId, input.timestamp, wire, now);
  if (!named.ok) return fail(named.error);
  const merchant = named.merchant;
  const frontend = merchant?.frontends.find((f) => f.name === input.frontend);
  const unprintableFields = new Set(unprintable.map((v) => v.field));
  const token: TokenResolution = merchant && !unprintableFields.has("cardToken") ? await resolveCardToken(deps, input, merchant.id, now) : { kind: "none" };
  if (token.kind === "card") input = token.input;
  const violations = withTokenViolations([...unprintable, ...validateProcess(input, { frontend, now }).filter((v) => !unprintableFields.has(v.field))], token);
  if (!merchant && !violations.some((v) => v.field === "merchantId")) violations.unshift({ field: "merchantId", description: "names no merchant" });
  if (violations.length > 0 || !merchant || !input.type) return fail(domainError("INVALID_FIELDS", describeViolations(violations), violations));

  let sale: RefundableSale | undefined;
  if (input.type === "refund") {
    const checked = await checkRefund(deps, merchant, input);
    if ("error" in checked) return fail(checked.error);
    sale = checked.sale;
  }
  // Refunds are not routed (CONTRACT 11); a sale or payout is, once, when its order is made.
  const routing = input.type === "refund" ? undefined : routeOrder(merchant, input, input.type);
  const draft = draftOf(input, input.type, merchant, deps, sale, origin, wire, routing);
  // A processor that cannot do this operation refuses it by name before any order exists.
  const able = deps.processors.capability(draft.processor, input.type, merchant);
  if (!able.ok) return fail({ ...able.error, violations: [{ field: "transaction_type", description: able.error.message }] });
  // Every account the order could be sent to is known to be down (the engine's own simulator, restarting): a retryable
  // refusal before any order exists, so that the platform's retry of the same order_id is processed then.
  const down = unreachable(deps, merchant, input.type, draft.processor, routing);
  if (down) return fail(down);
  // An operator's block (the customer, the card, the e-mail, the BIN) declines a sale or payout before the platform's
  // Validation and any processor (docs/backoffice-operations.md, Blocks): one indexed lookup, read before the order is
  // made, so that a lookup that fails leaves no order behind to be processed later without it. A refund is never blocked.
  const keys = blockKeys(input.type, {
    pin: input.customer.pin,
    email: input.customer.email,
    cardNumber: input.card.number,
    cardFingerprint: draft.cardFingerprint,
  });
  const block = keys.length > 0 ? refusingBlock(keys, await deps.blocks.held(merchant.id, keys)) : undefined;
  // The merchant's risk rules, when no block refused (docs/backoffice-operations.md, Risk rules): the rules from the
  // cache and, when any counts, one query for all their counts, read before the order is made as the blocks are.
  const risky = block ? undefined : await refusingRiskRule(deps, merchant.id, input, draft.cardFingerprint, now);
  // Only the request that used the token makes the order: a copy of it (the same order_id) that did not reads the order
  // instead, so that no copy whose CVV the use erased ever reaches a processor, however the two interleave.
  const used = token.kind === "card" ? await useCardToken(deps, token, now) : undefined;
  if (used?.kind === "refused") return fail(domainError("INVALID_FIELDS", describeViolations(used.violations), used.violations));
  let created: CreateOrderResult;
  if (used?.kind === "repeat") {
    const existing = await deps.orders.existingOrder(merchant.id, input.orderId);
    const early: FieldViolation[] = [{ field: "cardToken", description: CARD_TOKEN_IN_FLIGHT }];
    if (!existing) return fail(domainError("INVALID_FIELDS", describeViolations(early), early));
    created = existing;
  } else {
    try {
      created = await deps.orders.createOrder(draft);
    } catch (err) {
      if (err instanceof DomainFailure) return fail(err.error);
      throw err;
    }
  }
  // A withdrawal session's order_id names the payout its customer will request: the platform's own order under it (a
  // payout, a sale, a refund: order_ids are one namespace) would leave the customer a form that can never be paid.
  // The session start refuses the other way round the same way.
  if ("withdrawalSession" in created)
    return fail(
      domainError("ORDER_CONFLICT", `order_id ${input.orderId} names a hosted Cashier withdrawal session: its payout is the customer's to request`, [
        { field: "orderId", description: "names a hosted Cashier withdrawal session, whose payout its customer requests" },
      ]),
    );
  if (!created.created) {
    if (created.fingerprint !== draft.fingerprint) {
      return fail(
        domainError("ORDER_CONFLICT", `order_id ${input.orderId} was already used by this merchant with other parameters`, [
          { field: "orderId", description: "already used with other parameters" },
        ]),
      );
    }
    // A platform's repeat gets the attempt its original call answered (CONTRACT 3: the same trace_id), in its state now;
    // after a cascade, the later attempts' results reach its notification_url. A customer's repeated form (a session's
    // order) is shown where the order stands: its latest attempt.
    // The platform is told this state: if it is not final, its next change must be notified.
    let attempt = origin?.session ? created.attempt : created.first;
    if (!isFinal(attempt.type, stateOf(attempt)) && !attempt.replied) {
      attempt = (await deps.followUps.markReplied(attempt.traceId)) ?? attempt;
    }
    return { ok: true, attempt, merchant, replayed: true };
  }
  // A session's order answers the customer, not the platform: every change is notified, and its first result.
  // An operator's MOTO sale answers the console, not the platform: the same.
  const ctx = { merchant, afterReply: origin?.session !== undefined || origin?.createdBy.startsWith("backoffice:") === true, updatedBy: "system" };
  // The order's first attempt is declined by the block read above, as a decline of the platform's Validation would be.
  if (block) {
    const declined = await advance(deps, created.attempt, blockedDecision(input.type, block), ctx);
    return { ok: true, attempt: declined.attempt, merchant, replayed: false };
  }
  if (risky) {
    const declined = await advance(deps, created.attempt, riskDecision(input.type, risky.rule, risky.subject), ctx);
    return { ok: true, attempt: declined.attempt, merchant, replayed: false };
  }
  if (merchant.validationUrl && (input.type === "sale" || input.type === "payout")) {
    const validation = await validateWithPlatform(deps, created.attempt, merchant, merchant.validationUrl, origin?.session?.authToken);
    if (!validation.confirmed) {
      const declined = await advance(deps, created.attempt, validation.decision, ctx);
      return { ok: true, attempt: declined.attempt, merchant, replayed: false };
    }
  }
  const attempt = await runAttempt(deps, { attempt: created.attempt, card: input.card, sale, ctx, customer: input.customer });
  return { ok: true, attempt, merchant, replayed: false };
}
