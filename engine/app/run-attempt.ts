/**
 * Runs one attempt through its processor: call -> decide (pure table) ->
 * check the transition -> record. A payout with auto approval walks
 * requested -> A -> P before the processor is called; a manual one waits.
 * The full card number is sealed into the order only while the attempt may
 * still need it (cascade, 3-D Secure, a pending answer) and cleared otherwise.
 */
import { decide, type Decision, type ProcessorOutcome } from "../domain/outcome.ts";
import { canTransition, cardStillNeeded, type State } from "../domain/transitions.ts";
import type { Attempt } from "../domain/transaction.ts";
import type { CardDetails } from "../processors/processor.ts";
import { seal } from "../security/sealed-box.ts";
import { hmacHex } from "../security/hmac.ts";
import type { Merchant, ProcessDeps, RefundableSale } from "./ports.ts";

export interface RunInput {
  attempt: Attempt;
  card: CardDetails;
  merchant: Merchant;
  sale: RefundableSale | undefined;
}

const stateOf = (a: Attempt): State => ({ status: a.status, letter: a.payoutLetter });

/** The 3-D Secure page of an attempt: the trace_id plus a MAC, so ids cannot be guessed. */
export function challengeUrl(deps: ProcessDeps, traceId: number): string {
  const mac = hmacHex(deps.keys.tokenHash, `3ds:${traceId}`).slice(0, 32);
  return `${deps.publicUrl()}/3ds/${traceId}/${mac}`;
}

async function move(deps: ProcessDeps, a: Attempt, decision: Decision, card: CardDetails): Promise<Attempt> {
  const from = stateOf(a);
  const to = decision.to;
  if (to && !canTransition(a.type, from, to)) {
    throw new Error(`refused transition ${a.type} ${from.status}/${from.letter ?? ""} -> ${to.status}/${to.letter ?? ""}`);
  }
  const next = to ?? from;
  // Seal the number when the order starts to need it, clear it when it stops;
  // otherwise leave the order row alone.
  const needed = cardStillNeeded(a.type, next);
  const cardChange =
    needed && !a.cardHeld ? { sealed: seal(deps.keys.encryption, card.number, `order:${a.orderRef}`) } : !needed && a.cardHeld ? { sealed: null } : undefined;
  return deps.orders.applyDecision(a.traceId, from, { ...decision, to }, cardChange);
}

function step(to: State, cause: string): Decision {
  return { to, depositState: null, transactionId: null, errorCode: null, errorDetails: null, cause };
}

export async function runAttempt(deps: ProcessDeps, input: RunInput): Promise<Attempt> {
  let a = input.attempt;
  const processor = deps.processors.get(a.processor);
  if (!processor) throw new Error(`processor ${a.processor} is not registered`);
  const charge = { traceId: a.traceId, amountMinor: a.amountMinor, currency: a.currency, card: input.card };
  let outcome: ProcessorOutcome;
  if (a.type === "payout") {
    if (input.merchant.payoutApproval === "manual") return a;
    a = await move(deps, a, step({ status: "pending", letter: "A" }, "auto-approval"), input.card);
    a = await move(deps, a, step({ status: "pending", letter: "P" }, "sent-to-processor"), input.card);
    outcome = await processor.payout(charge);
  } else if (a.type === "refund") {
    outcome = await processor.refund({ ...charge, saleTransactionId: input.sale?.transactionId ?? "" });
  } else {
    outcome = await processor.authorize(charge);
  }
  const lastInCascade = a.attempt >= input.merchant.processors.length;
  const decision = decide(a.type, outcome, lastInCascade);
  const redirect = outcome.kind === "challenge" ? challengeUrl(deps, a.traceId) : null;
  return move(deps, a, { ...decision, redirectUrl: redirect }, input.card);
}
