/**
 * What the fixture service's Echo does when a request asks for it
 * (test/fixtures/round_trip.proto): wait `delay_ms`, then fail as `fail_with`
 * names (an engine refusal with details, an unexpected error, a value Postgres
 * refused, a database that is down). The servers of the adapter's and the
 * edge transport's tests share it.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { toRpcError } from "../../engine/rpc/errors.ts";
import type { EchoRequest } from "./round-trip-proto.ts";

export async function actAsAsked(r: EchoRequest): Promise<void> {
  if (r.delayMs > 0) await sleep(r.delayMs);
  switch (r.failWith) {
    case "rpc":
      throw toRpcError({ reason: "INVALID_FIELDS", message: "tags: too many", violations: [{ field: "tags", description: "too many" }] });
    case "plain":
      // Internal text that no caller may ever see.
      throw new Error("secret internal text at /srv/engine.ts:42");
    case "pg-data":
      throw Object.assign(new Error("value too long for type character varying(50)"), { code: "22001" });
    case "pg-down":
      throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
  }
}
