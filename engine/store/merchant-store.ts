/**
 * Merchants and frontends. Secrets are sealed with the master key before they
 * are written and opened only into the in-memory directory, which keeps each
 * merchant for a few seconds so the hot path does not read it on every call.
 */
import type { MikroORM } from "@mikro-orm/postgresql";
import type { Merchant, MerchantDirectory } from "../app/ports.ts";
import { open, seal } from "../security/sealed-box.ts";
import { hmacKey } from "../security/hmac.ts";
import type { KeyObject } from "node:crypto";
import { FrontendEntity } from "./entities/frontend.entity.ts";
import { MerchantEntity } from "./entities/merchant.entity.ts";

export interface MerchantSpec {
  merchantId: string;
  secret: string;
  siteId?: number | null;
  platformUrl?: string | null;
  validationUrl?: string | null;
  updatePayoutUrl?: string | null;
  updatePayoutStatuses?: string;
  payoutApproval?: "auto" | "manual";
  processors?: string[];
  frontends: { name: string; baseCurrency: string; currencies?: string[] }[];
}

const aad = (merchantId: string) => `merchant-secret:${merchantId}`;

export class PgMerchantStore implements MerchantDirectory {
  readonly #orm: MikroORM;
  readonly #key: KeyObject;
  readonly #ttlMs: number;
  readonly #cache = new Map<string, { at: number; merchant: Promise<Merchant | undefined> }>();

  constructor(orm: MikroORM, encryptionKey: KeyObject, ttlMs = 5000) {
    this.#orm = orm;
    this.#key = encryptionKey;
    this.#ttlMs = ttlMs;
  }

  async get(merchantId: string): Promise<Merchant | undefined> {
    const hit = this.#cache.get(merchantId);
    if (hit && Date.now() - hit.at < this.#ttlMs) return hit.merchant;
    const merchant = this.#load(merchantId);
    this.#cache.set(merchantId, { at: Date.now(), merchant });
    merchant.catch(() => this.#cache.delete(merchantId));
    return merchant;
  }

  async #load(merchantId: string): Promise<Merchant | undefined> {
    const em = this.#orm.em.fork();
    const m = await em.findOne(MerchantEntity, { id: merchantId });
    if (!m) return undefined;
    const frontends = await em.find(FrontendEntity, { merchantId }, { orderBy: { id: "asc" } });
    return {
      id: m.id,
      signingKey: hmacKey(open(this.#key, m.secretSealed, aad(m.id))),
      siteId: m.siteId ?? null,
      platformUrl: m.platformUrl ?? null,
      validationUrl: m.validationUrl ?? null,
      updatePayoutUrl: m.updatePayoutUrl ?? null,
      updatePayoutStatuses: m.updatePayoutStatuses,
      payoutApproval: m.payoutApproval === "manual" ? "manual" : "auto",
      processors: m.processors,
      frontends: frontends.map((f) => ({ name: f.name, baseCurrency: f.baseCurrency, currencies: f.currencies })),
    };
  }

  /** Creates or updates a merchant and its listed frontends in one transaction. */
  async upsert(spec: MerchantSpec): Promise<void> {
    await this.#orm.em.fork().transactional(async (em) => {
      const data = {
        secretSealed: seal(this.#key, spec.secret, aad(spec.merchantId)),
        siteId: spec.siteId ?? null,
        platformUrl: spec.platformUrl ?? null,
        validationUrl: spec.validationUrl ?? null,
        updatePayoutUrl: spec.updatePayoutUrl ?? null,
        updatePayoutStatuses: spec.updatePayoutStatuses ?? "CAPYJ",
        payoutApproval: spec.payoutApproval ?? "auto",
        processors: spec.processors ?? ["sim-a", "sim-b"],
      };
      const existing = await em.findOne(MerchantEntity, { id: spec.merchantId });
      if (existing) em.assign(existing, data);
      else em.create(MerchantEntity, { id: spec.merchantId, ...data });
      // Frontends reference the merchant by column, not by relation: write it first.
      await em.flush();
      for (const f of spec.frontends) {
        const currencies = f.currencies && f.currencies.length > 0 ? f.currencies : [f.baseCurrency];
        const fe = await em.findOne(FrontendEntity, { merchantId: spec.merchantId, name: f.name });
        if (fe) em.assign(fe, { baseCurrency: f.baseCurrency, currencies });
        else em.create(FrontendEntity, { merchantId: spec.merchantId, name: f.name, baseCurrency: f.baseCurrency, currencies });
      }
    });
    this.#cache.delete(spec.merchantId);
  }

  async count(): Promise<number> {
    return this.#orm.em.fork().count(MerchantEntity, {});
  }
}
