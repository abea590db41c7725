/**
 * The order's full card number while an attempt may still need it: sealed
 * (AES-256-GCM, bound to the order) into the order row, opened only to call a
 * processor. One place for the key and the binding, so sealing and opening
 * cannot drift apart.
 */
import type { CardDetails } from "../processors/processor.ts";
import { open, seal } from "../../security/sealed-box.ts";
import type { Attempt } from "../../shared/transaction.ts";
import type { ProcessDeps } from "../ports/process-deps.ts";

const binding = (a: Pick<Attempt, "orderRef">) => `order:${a.orderRef}`;

export function sealCard(deps: ProcessDeps, a: Pick<Attempt, "orderRef">, cardNumber: string): string {
  return seal(deps.keys.encryption, cardNumber, binding(a));
}

/** The card as a processor takes it (no CVV: it is never kept), or undefined when no longer held. */
export async function heldCard(deps: ProcessDeps, a: Attempt): Promise<CardDetails | undefined> {
  const sealed = await deps.orders.sealedCard(a.orderRef);
  return sealed ? { number: open(deps.keys.encryption, sealed, binding(a)), cvv: "", expiry: a.cardExpiry } : undefined;
}
