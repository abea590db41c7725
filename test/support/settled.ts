/**
 * Positive markers for "nothing more was sent" checks. A callback is sent only
 * from its row in the outbox, and the row is written in the same database
 * transaction as the change that owes it; once every row of a kind has left
 * `pending` (delivered, refused or failed) none of them is sent again. So a
 * test first waits, with a bound, for that state, and only then counts what
 * the platform received: the count cannot pass by being taken too early.
 */
import type { Client } from "@connectrpc/connect";
import { type Callback, CallbackKind, CallbackState } from "../../gen/cashier/engine/v1/callback_pb.js";
import type { EngineService } from "../../gen/cashier/engine/v1/engine_service_pb.js";
import { until } from "./until.ts";

/** The trace's callbacks of `kind` once there is at least one and none is pending; throws after `ms`. */
export async function settledCallbacks(client: Client<typeof EngineService>, traceId: number, kind: CallbackKind, ms = 15_000): Promise<Callback[]> {
  let last: Callback[] = [];
  const settled = await until(async () => {
    const got = await client.getTransaction({ traceId });
    last = got.callbacks.filter((c) => c.kind === kind);
    return last.length > 0 && last.every((c) => c.state !== CallbackState.PENDING) && last;
  }, ms);
  if (!settled) {
    throw new Error(
      `trace ${traceId}: the ${CallbackKind[kind]} callbacks did not settle within ${ms} ms: ${JSON.stringify(last.map((c) => CallbackState[c.state]))}`,
    );
  }
  return settled;
}

/** The trace's callbacks of `kind` as the database holds them now (an empty list: none is owed). */
export async function owedCallbacks(client: Client<typeof EngineService>, traceId: number, kind: CallbackKind): Promise<Callback[]> {
  return (await client.getTransaction({ traceId })).callbacks.filter((c) => c.kind === kind);
}
