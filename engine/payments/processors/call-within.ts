/**
 * A processor call with a time limit. A call that does not answer in time is
 * `unknown`, never declined (the acquirer may still take it): the attempt stays
 * pending and the follow-up worker asks again, by trace_id. The limit
 * (schedule.processor.timeoutMs) is well inside the follow-up worker's lease,
 * so no other engine starts the same step.
 */
import type { ProcessorOutcome } from "./processor.ts";

export async function callWithin(call: () => Promise<ProcessorOutcome>, ms: number): Promise<ProcessorOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ProcessorOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: "unknown", transactionId: "", message: `no answer within ${ms} ms` }), ms);
  });
  try {
    return await Promise.race([call(), timeout]);
  } catch (err) {
    return { kind: "unknown", transactionId: "", message: `the call failed: ${(err as Error).message}` };
  } finally {
    clearTimeout(timer);
  }
}
