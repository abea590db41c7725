/**
 * Card tokens on Postgres (table card_token, migration 028). One use is one
 * conditional UPDATE: the row is changed only while unused and unexpired, so
 * of two Process calls with one token exactly one changes it, and the same
 * statement erases the CVV.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import type { CardTokenUse } from "../domain/card-token.ts";
import type { CardTokenRecord, CardTokenStore, NewCardToken } from "../ports/card-tokens.ts";
import { typedDb } from "../../store/typed-db.ts";

export class PgCardTokenStore implements CardTokenStore {
  readonly #orm: MikroORM;

  constructor(orm: MikroORM) {
    this.#orm = orm;
  }

  #db() {
    return typedDb(this.#orm.em.fork());
  }

  async mint(t: NewCardToken): Promise<void> {
    await this.#db()
      .insertInto("card_token")
      .values({
        token_hash: t.tokenHash,
        merchant_id: t.merchantId,
        frontend: t.frontend,
        pin: t.pin,
        card_masked: t.cardMasked,
        card_brand: t.cardBrand,
        card_expiry: t.cardExpiry,
        card_fingerprint: t.cardFingerprint,
        card_sealed: t.cardSealed,
        cvv_sealed: t.cvvSealed,
        holder: t.holder,
        expires_at: t.expiresAt,
      })
      .execute();
  }

  async find(tokenHash: string): Promise<CardTokenRecord | undefined> {
    const r = await this.#db().selectFrom("card_token").selectAll().where("token_hash", "=", tokenHash).executeTakeFirst();
    if (!r) return undefined;
    return {
      merchantId: r.merchant_id,
      frontend: r.frontend,
      pin: r.pin,
      expiresAt: r.expires_at,
      usedAt: r.used_at,
      usedOrderId: r.used_order_id,
      cardMasked: r.card_masked,
      cardBrand: r.card_brand,
      cardExpiry: r.card_expiry,
      cardFingerprint: r.card_fingerprint,
      cardSealed: r.card_sealed,
      cvvSealed: r.cvv_sealed,
      holder: r.holder,
    };
  }

  async claim(tokenHash: string, use: CardTokenUse, now: Date): Promise<boolean> {
    const r = await this.#db()
      .updateTable("card_token")
      .set({ used_at: now, used_order_id: use.orderId, cvv_sealed: null })
      .where("token_hash", "=", tokenHash)
      .where("merchant_id", "=", use.merchantId)
      .where("frontend", "=", use.frontend)
      .where("pin", "=", use.pin)
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }
}
