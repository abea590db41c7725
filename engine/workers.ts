/**
 * The engine's background workers: callback delivery and attempt follow-up
 * (pending answers, cascade attempts, challenge expiry). Each engine process
 * runs both; on one database they share the work through SKIP LOCKED claims.
 */
import type { Config } from "./config.ts";
import type { Logger } from "./log.ts";
import type { ProcessDeps } from "./app/ports.ts";
import type { PollLoop } from "./app/poll-loop.ts";
import { startFollowUpWorker } from "./app/follow-up.ts";
import { startDeliveryWorker } from "./callbacks/delivery-worker.ts";

export function startWorkers(deps: ProcessDeps, config: Config, log: Logger): PollLoop[] {
  const onError = (worker: string) => (err: unknown) => log.error({ err, worker }, "worker step failed; it is retried");
  return [
    startDeliveryWorker({
      callbacks: deps.callbacks,
      merchants: deps.merchants,
      send: deps.send,
      policy: deps.settings.policy,
      timeoutMs: config.callbackTimeoutMs,
      pollMs: config.workerPollMs,
      concurrency: 32,
      now: deps.now,
      onError: onError("delivery"),
      onDelivered: (c, outcome) => log.info({ callback: c.id, kind: c.kind, traceId: c.traceId, attempt: c.attempt, outcome }, "callback attempt"),
    }),
    startFollowUpWorker(deps, { pollMs: config.workerPollMs, concurrency: 16, onError: onError("follow-up") }),
  ];
}
