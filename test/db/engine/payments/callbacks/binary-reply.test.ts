/**
 * A platform's reply holding a NUL byte (a binary or compressed body read as
 * text) is recorded like any other, the NUL kept as U+FFFD: Postgres refuses
 * U+0000 in text, and a delivery's record it refused left the callback claimed,
 * delivered again after every lease and never recorded; sent with the hot
 * path's write batch, it also made Postgres refuse the sales' writes beside it.
 * Real Postgres and the real store: the claim, then the record of a reply.
 */
import { randomUUID } from "node:crypto";
import t from "tap";
import { PgCallbackStore } from "../../../../../engine/payments/store/callback-store.ts";
import { PgOrderStore } from "../../../../../engine/payments/store/order-store.ts";
import { typedDb } from "../../../../../engine/store/typed-db.ts";
import { orderDraft } from "../../../../support/order-draft.ts";
import { migratedDatabase } from "../../../../support/store-database.ts";

t.test("a reply with a NUL byte is recorded, the NUL as U+FFFD, and the callback moves on", async (t) => {
  const { orm } = await migratedDatabase(t);
  await typedDb(orm.em.fork()).insertInto("merchant").values({ id: "m-nul", secret_sealed: "not-a-secret" }).execute();
  const made = await new PgOrderStore(orm, "binary-reply").createOrder(orderDraft("m-nul", "nul-1"));
  if (!("attempt" in made)) throw new Error("the order was refused");
  await typedDb(orm.em.fork())
    .insertInto("callback")
    .values({
      event_id: randomUUID(),
      kind: "notification",
      merchant_id: "m-nul",
      trace_id: made.attempt.traceId,
      url: "http://127.0.0.1:9/notify",
      body: "{}",
    })
    .execute();
  const store = new PgCallbackStore(orm, "binary-reply");
  const [claimed] = await store.claimDue(40_000, { limit: 4, perMerchant: 4, slots: 8 });
  t.ok(claimed, "the callback is claimed");
  const reply = `\u001f\u008b\u0000\u0000garbage{"status":0}`;
  await store.recordAttempt(
    claimed,
    { httpStatus: 200, body: reply, error: "", refusedAddress: false, durationMs: 12 },
    { outcome: "retry", state: "pending", error: "HTTP 200: the reply is not a JSON object", retryInSeconds: 10 },
  );
  const db = typedDb(orm.em.fork());
  const attempt = await db
    .selectFrom("callback_attempt")
    .select(["response_body", "outcome", "duration_ms"])
    .where("callback_id", "=", claimed.id)
    .executeTakeFirst();
  t.same(
    attempt,
    { response_body: `\u001f\u008b\uFFFD\uFFFDgarbage{"status":0}`, outcome: "retry", duration_ms: 12 },
    "the attempt is kept, the NULs replaced",
  );
  const callback = await db.selectFrom("callback").select(["state", "claim"]).where("id", "=", claimed.id).executeTakeFirstOrThrow();
  t.same(callback, { state: "pending", claim: null }, "the callback is released for its retry, not left claimed");
});
