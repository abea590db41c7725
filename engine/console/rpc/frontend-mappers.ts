/**
 * A frontend between cashier.admin.v1 and the merchants file's snake_case
 * entry, so that AdminService checks it with the same parser as the file
 * (engine/payments/app/merchant-spec.ts) and refuses the same faults by field name.
 */
import { create } from "@bufbuild/protobuf";
import {
  type FrontendBranding,
  FrontendBrandingSchema,
  FrontendLimitsSchema,
  FrontendSchema,
  type Frontend,
} from "../../../gen/cashier/admin/v1/merchant_pb.js";
import { type Branding, buttonTextOf } from "../../shared/branding.ts";
import type { FrontendWithSettings } from "../../payments/index.ts";
import { LIMIT_FIELDS } from "../../payments/index.ts";
import { invalidArgument } from "../../rpc/errors.ts";

/** The fields of Frontend an UpdateFrontend mask may name, besides name. */
export const FRONTEND_FIELDS = [
  "base_currency",
  "currencies",
  "allowed_origins",
  "deposit_presets",
  "limits",
  "default_locale",
  "save_cards",
  "closed_loop_withdrawals",
  "player_cancel_withdrawal",
  "branding",
] as const;
export type FrontendField = (typeof FRONTEND_FIELDS)[number];

const PROTO_KEY = {
  base_currency: "baseCurrency",
  currencies: "currencies",
  allowed_origins: "allowedOrigins",
  deposit_presets: "depositPresets",
  limits: "limits",
  default_locale: "defaultLocale",
  save_cards: "saveCards",
  closed_loop_withdrawals: "closedLoopWithdrawals",
  player_cancel_withdrawal: "playerCancelWithdrawal",
  branding: "branding",
} as const satisfies Record<FrontendField, keyof Frontend>;

/** The stored frontend as operators see it: every setting present, defaults included. */
export function frontendToProto(f: FrontendWithSettings): Frontend {
  const s = f.settings;
  return create(FrontendSchema, {
    name: f.name,
    baseCurrency: f.baseCurrency,
    currencies: f.currencies,
    allowedOrigins: s.allowedOrigins,
    depositPresets: s.depositPresets.map(BigInt),
    limits: Object.entries(s.limits)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([currency, l]) =>
        create(FrontendLimitsSchema, {
          currency,
          depositMin: l.depositMin === undefined ? undefined : BigInt(l.depositMin),
          depositMax: l.depositMax === undefined ? undefined : BigInt(l.depositMax),
          withdrawalMin: l.withdrawalMin === undefined ? undefined : BigInt(l.withdrawalMin),
          withdrawalMax: l.withdrawalMax === undefined ? undefined : BigInt(l.withdrawalMax),
        }),
      ),
    defaultLocale: s.defaultLocale,
    saveCards: s.saveCards,
    closedLoopWithdrawals: s.closedLoopWithdrawals,
    playerCancelWithdrawal: s.playerCancelWithdrawal,
    branding: s.branding ? brandingToProto(s.branding) : undefined,
  });
}

/** Whether the request carries a value for the field (a non-empty string or list, a present optional). */
export function setInFrontend(f: Frontend, field: FrontendField): boolean {
  const v = f[PROTO_KEY[field]];
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === "string") return v !== "";
  return v !== undefined;
}

/** `chosen` fields from `given`, the rest from `existing`. */
export function mergeFrontend(existing: Frontend, given: Frontend, chosen: ReadonlySet<FrontendField>): Frontend {
  const merged = create(FrontendSchema, existing);
  for (const field of FRONTEND_FIELDS) {
    if (!chosen.has(field)) continue;
    const key = PROTO_KEY[field];
    (merged as unknown as Record<string, unknown>)[key] = given[key];
  }
  return merged;
}

/** Int64 -> a JSON number for the parser, which refuses what is not a positive safe integer. */
const num = (v: bigint | undefined) => (v === undefined ? undefined : Number(v));

/** Proto -> the merchants file's frontend entry; `field` names the request's field in refusals. */
export function frontendEntryOf(f: Frontend, field: string): Record<string, unknown> {
  const limits: Record<string, Record<string, number | undefined>> = {};
  f.limits.forEach((l, i) => {
    if (l.currency in limits) throw invalidArgument(`${field}.limits[${i}].currency`, `repeats ${l.currency}`);
    limits[l.currency] = Object.fromEntries(LIMIT_FIELDS.map(([name, key]) => [name, num(l[key])]));
  });
  return {
    name: f.name || undefined,
    base_currency: f.baseCurrency || undefined,
    currencies: f.currencies.length > 0 ? f.currencies : undefined,
    allowed_origins: f.allowedOrigins,
    deposit_presets: f.depositPresets.map((a) => Number(a)),
    limits,
    default_locale: f.defaultLocale,
    save_cards: f.saveCards,
    closed_loop_withdrawals: f.closedLoopWithdrawals,
    player_cancel_withdrawal: f.playerCancelWithdrawal,
    branding: f.branding ? brandingEntryOf(f.branding) : undefined,
  };
}

/** Proto -> the merchants file's branding entry; button_text_color is the engine's output, never read back in. */
export function brandingEntryOf(b: FrontendBranding): Record<string, unknown> {
  return {
    display_name: b.displayName,
    primary_color: b.primaryColor,
    background_color: b.backgroundColor,
    text_color: b.textColor,
    corner_style: b.cornerStyle || undefined,
    logo_png: b.logoPng.length > 0 ? b.logoPng : undefined,
    logo_sha256: b.logoSha256 || undefined,
  };
}

/** A checked branding as operators see it: the engine's button text colour, the logo by its hash. */
export function brandingToProto(b: Branding): FrontendBranding {
  return create(FrontendBrandingSchema, {
    displayName: b.displayName,
    primaryColor: b.primaryColor,
    backgroundColor: b.backgroundColor,
    textColor: b.textColor,
    cornerStyle: b.cornerStyle,
    buttonTextColor: buttonTextOf(b),
    logoSha256: b.logoSha256 ?? "",
  });
}
