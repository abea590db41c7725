/**
 * A mail or telephone order (the Backoffice's Virtual Terminal, docs/backoffice-operations.md): a sale an operator
 * keyed in for a customer on the phone. It is known by who made its order (`backoffice:<login>`: the console makes no
 * other sale), so that every attempt of its cascade, made later from the stored order, is sent MOTO too without a
 * column of its own.
 */
import type { Attempt } from "../../shared/transaction.ts";
import type { ProcessorOutcome } from "./outcome.ts";

/** The maker of every order the Backoffice makes: `backoffice:<login>`. */
export const BACKOFFICE_MAKER = "backoffice:";

const base = (url: string) => url.replace(/\/+$/, "");

/**
 * Where a MOTO sale's status notifications go: no platform sent its notification_url, so `{platform_url}/Notification`,
 * beside the platform's other methods under platform_url (UpdatePayout, RecordFailedDeposit); none without one.
 */
export function motoNotificationUrl(m: { platformUrl: string | null }): string {
  return m.platformUrl ? `${base(m.platformUrl)}/Notification` : "";
}

/** Whether the attempt is a MOTO sale: a sale whose order an operator made. */
export function isMotoSale(a: Pick<Attempt, "type" | "createdBy">): boolean {
  return a.type === "sale" && a.createdBy.startsWith(BACKOFFICE_MAKER);
}

/**
 * A processor that asks for 3-D Secure on a MOTO sale asks what no one can answer (the customer is on the phone, not
 * at a browser): the sale is declined, saying so, rather than left waiting on a challenge page nobody opens.
 */
export function motoOutcome(outcome: ProcessorOutcome): ProcessorOutcome {
  if (outcome.kind !== "challenge") return outcome;
  return { kind: "declined", transactionId: outcome.transactionId, code: "", message: "the processor asked for 3-D Secure on a MOTO sale" };
}
