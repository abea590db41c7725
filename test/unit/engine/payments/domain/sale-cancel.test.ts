/**
 * When an operator may cancel a sale, every status enumerated: only a sale waiting for its customer on Cashier's
 * own 3-D Secure page, not while the customer's answer is being sent; every refusal says why in words.
 */
import t from "tap";
import { saleCancelRefusal } from "../../../../../engine/payments/domain/sale-cancel.ts";
import type { TransactionStatus, TransactionType } from "../../../../../engine/shared/transaction.ts";

const now = new Date("2026-01-01T12:00:00Z");
const sale = (status: TransactionStatus, extra: { type?: TransactionType; acquirerRedirectUrl?: string; completingUntil?: Date } = {}) => ({
  type: extra.type ?? ("sale" as TransactionType),
  status,
  processor: "sim-a",
  acquirerRedirectUrl: extra.acquirerRedirectUrl ?? null,
  completingUntil: extra.completingUntil ?? null,
});

t.test("every status of a sale", async (t) => {
  const cases: [TransactionStatus, RegExp | undefined][] = [
    ["pending", /with its processor sim-a, which may be authorising it, and no connector can void a payment/],
    ["pending_async", undefined],
    ["approved", /the sale is approved: only a sale still waiting for its customer can be cancelled/],
    ["declined", /the sale is declined/],
    ["declined_retry", /the sale is declined_retry/],
    ["cancelled", /the sale is cancelled/],
  ];
  for (const [status, refusal] of cases) {
    const why = saleCancelRefusal(sale(status), now);
    if (refusal) t.match(why, refusal, status);
    else t.equal(why, undefined, `${status}: may be cancelled`);
  }
});

t.test("a challenge at the acquirer's own page, or an answer on its way, is refused by name", async (t) => {
  t.match(
    saleCancelRefusal(sale("pending_async", { acquirerRedirectUrl: "https://acs.example/c" }), now),
    /on sim-a's own page, where the acquirer authorises/,
  );
  t.match(saleCancelRefusal(sale("pending_async", { completingUntil: new Date(now.getTime() + 1000) }), now), /being sent to the processor right now/);
  t.equal(
    saleCancelRefusal(sale("pending_async", { completingUntil: new Date(now.getTime() - 1000) }), now),
    undefined,
    "a claim run out is no answer on its way",
  );
});

t.test("only sales", async (t) => {
  t.match(saleCancelRefusal(sale("requested", { type: "payout" }), now), /only a sale can be cancelled here/);
  t.match(saleCancelRefusal(sale("pending", { type: "refund" }), now), /only a sale can be cancelled here/);
});
