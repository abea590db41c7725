/**
 * The delivery worker: claims due callbacks (SKIP LOCKED, with a lease longer
 * than the call's timeout: schedule.callbacks.leaseMs; each merchant held to
 * its fair share of the `concurrency` slots and to `perMerchant` over all
 * engines, with a share always left for a merchant newly owed, so that any
 * number of slow or dead platforms hold only their shares and never delay
 * another's callbacks: store/callback-claim.ts), sends each with its
 * headers, judges the reply by the domain's rules and records the attempt. A
 * crash anywhere leaves the callback pending; after the lease it is due again
 * with the same event id.
 */
import { judgeReply } from "./reply-ack.ts";
import type { Schedule } from "../ports/schedule.ts";
import type { MerchantDirectory } from "../ports/merchants.ts";
import { startWorkPool, type PollLoop } from "../../shared/runtime/poll-loop.ts";
import type { CallbackLog, ClaimedCallback, Send } from "../ports/callbacks.ts";
import { callbackHeaders, signatureHeader } from "./signature-header.ts";
import { signNotification } from "./notification-codec.ts";

export interface DeliveryWorkerDeps {
  callbacks: CallbackLog;
  merchants: MerchantDirectory;
  send: Send;
  /** The call's timeout, the claim's lease, the retry delays, the poll and the drain. */
  schedule: Pick<Schedule, "callbacks" | "workers">;
  /** Calls in flight at most in this engine: the slots the merchants owed share fairly. */
  concurrency: number;
  /** Calls in flight at most to one merchant, over all engines: a slow platform never holds every slot. */
  perMerchant: number;
  now: () => Date;
  onError: (err: unknown) => void;
  onDelivered?: (c: ClaimedCallback, outcome: string) => void;
}

export async function deliverOne(deps: DeliveryWorkerDeps, c: ClaimedCallback): Promise<void> {
  const merchant = await deps.merchants.get(c.merchantId);
  const headers = callbackHeaders(c.eventId, c.merchantId);
  if (merchant && (c.kind === "update_payout" || c.kind === "record_failed_deposit")) {
    headers["x-cashier-signature"] = signatureHeader(merchant.signingKey, c.body, Math.floor(deps.now().getTime() / 1000));
  }
  // Signed now, with the secret current now (a rotation since the change is honoured).
  const body = merchant && c.kind === "notification" ? signNotification(c.body, merchant.signingKey) : c.body;
  const result = merchant
    ? await deps.send({ url: c.url, body, headers, timeoutMs: deps.schedule.callbacks.timeoutMs })
    : { httpStatus: 0, body: "", error: "the merchant no longer exists", refusedAddress: false, durationMs: 0 };
  const verdict = judgeReply(c.kind, result, c.attempt, deps.schedule.callbacks);
  await deps.callbacks.recordAttempt(c, result, verdict);
  deps.onDelivered?.(c, verdict.outcome);
}

export function startDeliveryWorker(deps: DeliveryWorkerDeps): PollLoop {
  return startWorkPool({
    claim: (n) => deps.callbacks.claimDue(deps.schedule.callbacks.leaseMs, { limit: n, perMerchant: deps.perMerchant, slots: deps.concurrency }),
    work: (c) => deliverOne(deps, c),
    max: deps.concurrency,
    pollMs: deps.schedule.workers.pollMs,
    drainMs: deps.schedule.workers.drainMs,
    onError: deps.onError,
  });
}
