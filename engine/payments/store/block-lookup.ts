/**
 * The Process call's block lookup on Postgres (ports/blocks.ts): one query on
 * customer_block's partial unique index (merchant_id, kind, value) where the
 * block is held (migration 026), for every key of the request at once.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import type { BlockKey, HeldBlock } from "../domain/blocks.ts";
import type { BlockList } from "../ports/blocks.ts";
import { typedDb } from "../../store/typed-db.ts";

export class PgBlockList implements BlockList {
  readonly #orm: MikroORM;

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  async held(merchantId: string, keys: readonly BlockKey[]): Promise<HeldBlock[]> {
    if (keys.length === 0) return [];
    const rows = await typedDb(this.#orm.em.fork())
      .selectFrom("customer_block")
      .select(["id", "kind", "value"])
      .where("merchant_id", "=", merchantId)
      .where("lifted_at", "is", null)
      .where((eb) => eb.or(keys.map((k) => eb.and([eb("kind", "=", k.kind), eb("value", "=", k.value)]))))
      .execute();
    return rows.map((r) => ({ id: r.id, kind: r.kind, value: r.value }));
  }
}
