/**
 * The acquirers' webhook inbox on Postgres (table acquirer_webhook_event, migration 018): the unique (merchant_id,
 * account, event_id) makes a second copy of an event write nothing, also when both arrive at the same moment.
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
      .selectFrom("acquirer_webhook_event")
      .select("id")
      .where("merchant_id", "=", merchantId)
      .where("account", "=", account)
      .where("event_id", "=", eventId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async record(e: InboxEntry, tx?: Tx): Promise<boolean> {
    const rows = await typedDb(tx ? emOf(tx) : this.#orm.em.fork())
      .insertInto("acquirer_webhook_event")
      .values({
        merchant_id: e.merchantId,
        account: e.account,
        event_id: e.eventId,
        event_type: e.eventType,
        body: e.body,
        trace_id: e.traceId,
        outcome: e.outcome,
        applied_at: e.appliedAt,
      })
      .onConflict((oc) => oc.columns(["merchant_id", "account", "event_id"]).doNothing())
      .returning("id")
      .execute();
    return rows.length > 0;
  }
}
