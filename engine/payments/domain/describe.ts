/** The reply's human description of an attempt's status: pure words from the state, which the Process reply and the notification both carry. */
import { signableText } from "../../shared/canonical.ts";
import type { Attempt } from "../../shared/transaction.ts";

export function describeAttempt(a: Attempt): string {
  return signableText(describe(a));
}

function describe(a: Attempt): string {
  switch (a.status) {
    case "approved":
      return "Approved";
    case "declined":
      return a.errorDetails ? `Declined: ${a.errorDetails}` : "Declined";
    case "declined_retry":
      return "Declined by this processor; the next processor of the cascade is tried";
    case "pending":
      return a.payoutLetter ? `Payout in progress (${a.payoutLetter})` : "Pending: the processor's final answer follows";
    case "pending_async":
      return "Customer action required: 3-D Secure at redirect_url";
    case "requested":
      return "Awaiting the merchant's approval";
    case "cancelled":
      return "Cancelled";
  }
}
