/**
 * The delivery worker: claims due callbacks (SKIP LOCKED, with a lease longer
 * than the call's timeout), sends each with its headers, judges the reply by
 * the domain's rules and records the attempt. A crash anywhere leaves the
 * callback pending; after the lease it is due again with the same event id.
 */
import { judgeReply, type RetryPolicy } from "../domain/callbacks.ts";
import type { MerchantDirectory } from "../app/ports.ts";
import { startPollLoop, type PollLoop } from "../app/poll-loop.ts";
import type { ClaimedCallback, PgCallbackStore } from "../store/callback-store.ts";
import type { Send } from "./http-sender.ts";
import { signatureHeader } from "./signature-header.ts";

export interface DeliveryWorkerDeps {
  callbacks: PgCallbackStore;
  merchants: MerchantDirectory;
  send: Send;
  policy: RetryPolicy;
  timeoutMs: number;
  pollMs: number;
  batch: number;
  now: () => Date;
  onError: (err: unknown) => void;
  onDelivered?: (c: ClaimedCallback, outcome: string) => void;
}

/** Lease = the call's timeout plus a margin for recording the answer. */
export const leaseMs = (timeoutMs: number) => timeoutMs + 5000;

export async function deliverOne(deps: DeliveryWorkerDeps, c: ClaimedCallback): Promise<void> {
  const merchant = await deps.merchants.get(c.merchantId);
  const headers: Record<string, string> = { "x-cashier-event-id": c.eventId, "x-cashier-merchant-id": c.merchantId };
  if (merchant && (c.kind === "update_payout" || c.kind === "record_failed_deposit")) {
    headers["x-cashier-signature"] = signatureHeader(merchant.signingKey, c.body, Math.floor(deps.now().getTime() / 1000));
  }
  const result = merchant
    ? await deps.send({ url: c.url, body: c.body, headers, timeoutMs: deps.timeoutMs })
    : { httpStatus: 0, body: "", error: "the merchant no longer exists", refusedAddress: false, durationMs: 0 };
  const verdict = judgeReply(c.kind, result, c.attempt, deps.policy);
  await deps.callbacks.recordAttempt(c, result, verdict);
  deps.onDelivered?.(c, verdict.outcome);
}

export function startDeliveryWorker(deps: DeliveryWorkerDeps): PollLoop {
  return startPollLoop(
    async () => {
      const claimed = await deps.callbacks.claimDue(deps.batch, leaseMs(deps.timeoutMs));
      await Promise.all(claimed.map((c) => deliverOne(deps, c).catch(deps.onError)));
      return claimed.length;
    },
    deps.pollMs,
    deps.onError,
  );
}
