/** A Cashier front end (site) of a merchant, tied to one base currency, with its hosted Cashier's settings. */
import { defineEntity, p } from "@mikro-orm/core";
import type { CurrencyLimits } from "../../shared/money.ts";
import type { Branding } from "../../shared/branding.ts";
import { MerchantEntity } from "./merchant.entity.ts";

/** Table frontend (001, settings 005, branding 029): unique per (merchant_id, name), removed with its merchant. */
export const FrontendEntity = defineEntity({
  name: "Frontend",
  tableName: "frontend",
  properties: {
    id: p.integer().primary().autoincrement(),
    merchant: () => p.manyToOne(MerchantEntity).fieldName("merchant_id").deleteRule("cascade"),
    name: p.text(),
    baseCurrency: p.character().length(3),
    currencies: p.json<string[]>(),
    allowedOrigins: p.json<string[]>().defaultRaw(`'[]'`),
    depositPresets: p.json<number[]>().defaultRaw(`'[]'`),
    limits: p.json<Record<string, CurrencyLimits>>().defaultRaw(`'{}'`),
    defaultLocale: p.text().default("en"),
    saveCards: p.boolean().default(true),
    closedLoopWithdrawals: p.boolean().default(true),
    playerCancelWithdrawal: p.boolean().default(false),
    /** 029: the hosted Cashier's branding as the engine checked it; null: the Cashier's own look. */
    branding: p.json<Branding>().nullable(),
  },
});
