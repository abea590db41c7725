/**
 * The engine's background workers: callback delivery and attempt follow-up
 * (pending answers, cascade attempts, challenge expiry), and the retention
 * purge. Each engine process runs all three; on one database they share the
 * work through SKIP LOCKED claims. Their polls, leases and drains come from
 * deps.schedule.
 */
import type { RetentionStore } from "./retention/ports/ports.ts";
import type { Logger } from "./shared/runtime/log.ts";
import type { ProcessDeps } from "./payments/ports/process-deps.ts";
import type { PollLoop } from "./shared/runtime/poll-loop.ts";
import { startFollowUpWorker } from "./payments/app/follow-up.ts";
import { startRetentionWorker } from "./retention/app/retention.ts";
import { startDeliveryWorker } from "./payments/callbacks/delivery-worker.ts";
import type { WorkKind } from "./store/work-notice.ts";

export interface Workers {
  delivery: PollLoop;
  followUp: PollLoop;
  /** Never woken: it steps at its own pace (schedule.retention.everyMs). */
  retention: PollLoop;
}

/** How many calls each worker keeps in flight. */
export interface WorkerLimits {
  /** Callback calls in flight in this engine. */
  callbacks: number;
  /** Callback calls in flight to one merchant's platform, over all engines. */
  callbacksPerMerchant: number;
}

export function startWorkers(deps: ProcessDeps, retention: RetentionStore, log: Logger, limits: WorkerLimits): Workers {
  const onError = (worker: string) => (err: unknown) => log.error({ err, worker }, "worker step failed; it is retried");
  return {
    delivery: startDeliveryWorker({
      callbacks: deps.callbacks,
      merchants: deps.merchants,
      send: deps.send,
      schedule: deps.schedule,
      concurrency: limits.callbacks,
      perMerchant: limits.callbacksPerMerchant,
      now: deps.now,
      onError: onError("delivery"),
      onDelivered: (c, outcome) => log.info({ callback: c.id, kind: c.kind, traceId: c.traceId, attempt: c.attempt, outcome }, "callback attempt"),
    }),
    followUp: startFollowUpWorker(deps, { concurrency: 16, onError: onError("follow-up") }),
    retention: startRetentionWorker(retention, deps.schedule.retention, {
      onError: onError("retention"),
      onPurged: (table, rows) => log.info({ table, rows }, "retention: purged"),
      onMonths: (run) => log.info({ made: run.made, dropped: run.dropped }, "retention: months made and dropped"),
      now: deps.now,
    }),
  };
}

/** Wakes the worker that does this kind of work; both when the kind is not known. */
export function wakeWorkers(w: Workers, kind?: WorkKind): void {
  if (kind !== "follow-up") w.delivery.wake();
  if (kind !== "callback") w.followUp.wake();
}

/** Stops claiming and waits for the work in flight (at most the drain time). */
export async function stopWorkers(w: Workers): Promise<void> {
  await Promise.all([w.delivery.stop(), w.followUp.stop(), w.retention.stop()]);
}
