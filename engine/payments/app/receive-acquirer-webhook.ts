/**
 * An acquirer's webhook (CONTRACT 11): verified with the account's own credentials, read by its connector through
 * the same status tables as a lookup, kept once per event, and applied to its attempt through the same step a
 * lookup's answer takes (advance), the inbox row in the change's own database transaction. The acknowledgement is
 * answered only after the commit, so an acquirer that gets it has had its event kept; one that does not sends again,
 * and the copy changes nothing. A forged body changes nothing; nor does a verified event for another account at the
 * acquirer, or with an amount or currency that is not its attempt's (kept, acknowledged, and logged as a warning).
 */
import { domainError, type DomainError } from "../../shared/errors.ts";
import type { Attempt } from "../../shared/transaction.ts";
import { decide } from "../domain/outcome.ts";
import { canTransition, stateOf } from "../domain/transitions.ts";
import { connectorNamed } from "../processors/connectors.ts";
import type { WebhookEvent } from "../processors/connector.ts";
import type { Merchant } from "../ports/merchants.ts";
import type { ProcessDeps } from "../ports/process-deps.ts";
import type { InboxEntry, WebhookInbox } from "../ports/webhook-inbox.ts";
import { advance } from "./advance.ts";
import { isLastInCascade } from "./run-attempt.ts";

/** A webhook as the edge received it. */
export interface AcquirerWebhook {
  merchantId: string;
  account: string;
  /** Header names lower-cased. */
  headers: Readonly<Record<string, string>>;
  /** The raw body, verified as it came. */
  body: Buffer;
}

/** What the acquirer is answered (status 200), once every event of the body is committed. */
export interface WebhookAcknowledgement {
  contentType: string;
  body: string;
}

export type WebhookResult = { ok: true; ack: WebhookAcknowledgement } | { ok: false; error: DomainError };

/** An empty 200, what an acquirer that names no acknowledgement expects. */
const EMPTY_ACK: WebhookAcknowledgement = { contentType: "text/plain", body: "" };

/** Thrown inside the change's transaction when its event was kept meanwhile by another copy: the change is rolled back. */
class AlreadyKept extends Error {}

/** The merchant's attempt the event names: by the acquirer's id, else by our trace_id, on this merchant and account only. */
async function attemptOf(deps: ProcessDeps, merchantId: string, account: string, e: WebhookEvent): Promise<Attempt | undefined> {
  if (e.transactionId) {
    const byId = await deps.orders.findByProcessorId(merchantId, account, e.transactionId);
    if (byId) return byId;
  }
  if (e.traceId === undefined) return undefined;
  const byTrace = await deps.orders.get(e.traceId);
  return byTrace && byTrace.merchantId === merchantId && byTrace.processor === account ? byTrace : undefined;
}

/**
 * Why an event does not belong where it came, if it does not: another account at the acquirer (its own code), or an
 * amount or currency that is not its attempt's. Such an event is kept and acknowledged, and changes nothing.
 */
function mismatchOf(e: WebhookEvent, accountCode: string | undefined, a?: Attempt): { outcome: string; fields: Record<string, unknown> } | undefined {
  if (e.accountCode !== undefined && accountCode !== undefined && e.accountCode !== accountCode) {
    return { outcome: "account-mismatch", fields: { event_account: e.accountCode, account_code: accountCode } };
  }
  if (a && e.amount && (e.amount.minor !== a.amountMinor || e.amount.currency !== a.currency)) {
    const fields = { event_amount: e.amount.minor, event_currency: e.amount.currency, amount: a.amountMinor, currency: a.currency };
    return { outcome: "amount-mismatch", fields };
  }
  return undefined;
}

/** One event: kept, and applied when it moves its attempt along an allowed transition. */
async function receiveEvent(
  deps: ProcessDeps,
  inbox: WebhookInbox,
  merchant: Merchant,
  w: AcquirerWebhook,
  e: WebhookEvent,
  accountCode: string | undefined,
): Promise<void> {
  if (await inbox.has(w.merchantId, w.account, e.id)) return;
  const entry: InboxEntry = {
    merchantId: w.merchantId,
    account: w.account,
    eventId: e.id,
    eventType: e.type,
    body: w.body,
    traceId: e.traceId ?? null,
    outcome: "kept",
    appliedAt: null,
  };
  const keep = async (outcome: string, traceId = entry.traceId) => {
    await inbox.record({ ...entry, outcome, traceId });
  };
  if (!e.outcome || !e.flow) return keep("kept");
  /** Kept, acknowledged, changing nothing, and told to an operator (ids, amounts and account codes only: no card data). */
  const refuse = async (m: { outcome: string; fields: Record<string, unknown> }, traceId = entry.traceId) => {
    const fields = { merchant_id: w.merchantId, account: w.account, event_id: e.id, event_type: e.type, trace_id: traceId, ...m.fields };
    deps.warn?.(fields, `acquirer webhook not applied: ${m.outcome}`);
    await keep(m.outcome, traceId);
  };
  // Checked before any attempt is looked for: another account's event may carry a trace_id of ours by chance, and
  // its reference is not kept as one of ours.
  const foreign = mismatchOf(e, accountCode);
  if (foreign) return refuse(foreign, null);
  const a = await attemptOf(deps, w.merchantId, w.account, e);
  if (!a) return keep("no-attempt");
  // A refund's event carrying its sale's reference must not move the sale (nor a sale's event a refund).
  if (a.type !== e.flow) return keep("flow-mismatch", a.traceId);
  const mismatch = mismatchOf(e, accountCode, a);
  if (mismatch) return refuse(mismatch, a.traceId);
  const decision = { ...decide(a.type, e.outcome, isLastInCascade(a, merchant)), cause: `webhook:${e.type}` };
  // Already final, or past what the event says: nothing to apply.
  if (!decision.to || !canTransition(a.type, stateOf(a), decision.to)) return keep("unchanged", a.traceId);
  const applied = { ...entry, traceId: a.traceId, outcome: "applied", appliedAt: deps.now() };
  try {
    const result = await advance(deps, a, decision, {
      merchant,
      afterReply: true,
      updatedBy: "system",
      alongside: async (tx) => {
        if (!(await inbox.record(applied, tx))) throw new AlreadyKept();
      },
    });
    // The attempt moved meanwhile (a lookup, an operator): the event is kept, having changed nothing.
    if (!result.applied) await keep("unchanged", a.traceId);
  } catch (err) {
    if (!(err instanceof AlreadyKept)) throw err;
  }
}

/**
 * Receives one webhook for a merchant's account: NOT_FOUND for an unknown merchant or account, CAPABILITY_MISSING
 * when its connector sends none, SIGNATURE_INVALID when it does not verify, MALFORMED_BODY when it is not the
 * acquirer's format; each of them changes nothing. Otherwise every event is kept (once) and applied, then the
 * connector's acknowledgement is returned.
 */
export async function receiveAcquirerWebhook(deps: ProcessDeps, inbox: WebhookInbox, w: AcquirerWebhook): Promise<WebhookResult> {
  const merchant = await deps.merchants.get(w.merchantId);
  const account = merchant?.processorAccounts.find((x) => x.name === w.account);
  if (!merchant || !account) return { ok: false, error: domainError("NOT_FOUND", "no such merchant or account") };
  const webhooks = connectorNamed(account.connector)?.webhooks;
  if (!webhooks) return { ok: false, error: domainError("CAPABILITY_MISSING", `the connector ${account.connector} sends no webhooks`) };
  if (!webhooks.verify(w.body, w.headers, account.credentials)) {
    return { ok: false, error: domainError("SIGNATURE_INVALID", "the webhook's signature does not verify") };
  }
  let events: WebhookEvent[];
  try {
    events = webhooks.parse(w.body);
  } catch (err) {
    return { ok: false, error: domainError("MALFORMED_BODY", `not a ${account.connector} webhook: ${(err as Error).message}`) };
  }
  const accountCode = webhooks.accountCode?.(account.settings);
  for (const e of events) await receiveEvent(deps, inbox, merchant, w, e, accountCode);
  return { ok: true, ack: webhooks.acknowledgement ?? EMPTY_ACK };
}
