/**
 * The acquirers' webhook inbox on Postgres (table acquirer_webhook_event, migration 018, by month since 022): the
 * primary key of acquirer_webhook_event_key, (merchant_id, account, event_id), makes a second copy of an event
 * write nothing, whichever month it comes in, also when both arrive at the same moment. The key and the event are
 * written in one statement: the event only when its key was new.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import type { InboxEntry, WebhookInbox } from "../ports/webhook-inbox.ts";
import { typedDb } from "../../store/typed-db.ts";
import { emOf, type Tx } from "../../store/tx.ts";

export class PgWebhookInbox implements WebhookInbox {
  readonly #orm: MikroORM;

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  async has(merchantId: string, account: string, eventId: string): Promise<boolean> {
    const row = await typedDb(this.#orm.em.fork())
      .selectFrom("acquirer_webhook_event_key")
      .select("event_id")
      .where("merchant_id", "=", merchantId)
      .where("account", "=", account)
      .where("event_id", "=", eventId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async record(e: InboxEntry, tx?: Tx): Promise<boolean> {
    const db = typedDb(tx ? emOf(tx) : this.#orm.em.fork());
    const rows = await db
      .with("k", (db) =>
        db
          .insertInto("acquirer_webhook_event_key")
          .values({ merchant_id: e.merchantId, account: e.account, event_id: e.eventId })
          .onConflict((oc) => oc.columns(["merchant_id", "account", "event_id"]).doNothing())
          .returning("received_at"),
      )
      .insertInto("acquirer_webhook_event")
      .columns(["merchant_id", "account", "event_id", "event_type", "body", "trace_id", "outcome", "applied_at", "received_at"])
      .expression((eb) =>
        eb.selectFrom("k").select((eb) => [
          // Typed: a parameter in a SELECT list would otherwise be taken for text.
          eb.cast<string>(eb.val(e.merchantId), "text").as("merchant_id"),
          eb.cast<string>(eb.val(e.account), "text").as("account"),
          eb.cast<string>(eb.val(e.eventId), "text").as("event_id"),
          eb.cast<string>(eb.val(e.eventType), "text").as("event_type"),
          eb.cast<Buffer>(eb.val(e.body), "bytea").as("body"),
          eb.cast<number | null>(eb.val(e.traceId), "bigint").as("trace_id"),
          eb.cast<string>(eb.val(e.outcome), "text").as("outcome"),
          eb.cast<Date | null>(eb.val(e.appliedAt), "timestamptz").as("applied_at"),
          "k.received_at",
        ]),
      )
      .returning("id")
      .execute();
    return rows.length > 0;
  }
}
