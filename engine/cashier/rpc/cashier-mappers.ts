/** cashier.engine.v1 messages <-> the hosted Cashier's domain values, for the RPC layer only. */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  CashierBrandingSchema,
  CashierFrontendSchema,
  CashierSessionSchema,
  SavedCardSchema,
  SessionIntent as PbIntent,
  type CashierSession,
  type NewCard,
  type StartSessionRequest,
} from "../../../gen/cashier/engine/v1/cashier_service_pb.js";
import { buttonTextOf } from "../../shared/branding.ts";
import { MoneySchema, type Money } from "../../../gen/cashier/engine/v1/money_pb.js";
import { MaskedCardSchema } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import type { CardSource } from "../app/cashier-forms.ts";
import type { SessionView } from "../app/cashier-session.ts";
import { wireLimitToMinor, type SessionIntent, type SessionStartInput } from "../domain/hosted-session.ts";
import { attemptToProto, customerFromProto } from "../../payments/rpc/index.ts";
import { offeredPresets } from "../../shared/offered-presets.ts";

/** A bigint that does not fit a safe integer becomes NaN, which validation refuses. */
const safeNumber = (v: bigint): number => (v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : Number.NaN);

const INTENTS: [SessionIntent, PbIntent][] = [
  ["deposit", PbIntent.DEPOSIT],
  ["withdrawal", PbIntent.WITHDRAWAL],
  ["fields", PbIntent.FIELDS],
];

export const intentToProto = (i: SessionIntent) => INTENTS.find(([d]) => d === i)?.[1] ?? PbIntent.UNSPECIFIED;

export function sessionInputFromProto(r: StartSessionRequest): SessionStartInput {
  return {
    merchantId: r.merchantId,
    intent: INTENTS.find(([, p]) => p === r.intent)?.[0],
    frontend: r.frontend,
    currency: r.currency,
    amountMinor: r.amountMinor === undefined ? undefined : safeNumber(r.amountMinor),
    balanceMinor: r.balanceMinor === undefined ? undefined : safeNumber(r.balanceMinor),
    customer: customerFromProto(r.customer),
    locale: r.locale,
    returnUrl: r.returnUrl,
    notificationUrl: r.notificationUrl,
    orderId: r.orderId,
    scOrderId: r.scOrderId,
    udef1: r.udef1,
    udef2: r.udef2,
    timestamp: r.timestamp === undefined ? undefined : safeNumber(r.timestamp),
    version: r.version,
  };
}

/** A form's amount: NaN when absent or beyond a safe integer (refused by the rules, named `amount`). */
export const formAmount = (m: Money | undefined) => ({ amountMinor: m ? safeNumber(m.amountMinor) : Number.NaN, currency: m?.currency ?? "" });

export function newCardSource(n: NewCard): CardSource {
  return { kind: "new", number: n.card?.number ?? "", cvv: n.card?.cvv ?? "", expiry: n.card?.expiry ?? "", holder: n.holder, save: n.save };
}

const money = (minor: number | null, currency: string) => (minor === null ? undefined : create(MoneySchema, { amountMinor: BigInt(minor), currency }));

export function sessionToProto(v: SessionView): CashierSession {
  const s = v.session;
  const st = v.frontend.settings;
  const l = st.limits[s.currency] ?? {};
  const bound = (wire: number | undefined, round: "up" | "down") => BigInt(wire === undefined ? 0 : wireLimitToMinor(wire, s.currency, round));
  const presets = offeredPresets(
    st.depositPresets.map((p) => BigInt(wireLimitToMinor(p, s.currency, "down"))),
    l.depositMin === undefined ? undefined : bound(l.depositMin, "up"),
    l.depositMax === undefined ? undefined : bound(l.depositMax, "down"),
  );
  return create(CashierSessionSchema, {
    intent: intentToProto(s.intent),
    merchantId: s.merchantId,
    frontend: s.frontend,
    currency: s.currency,
    amount: money(s.amountMinor, s.currency),
    balance: money(s.balanceMinor, s.currency),
    locale: s.locale,
    returnUrl: s.returnUrl,
    expireTime: timestampFromDate(s.expiresAt),
    orderId: s.orderId ?? "",
    customerName: `${s.customer.firstName} ${s.customer.lastName}`.trim(),
    frontendSettings: create(CashierFrontendSchema, {
      allowedOrigins: st.allowedOrigins,
      depositPresetsMinor: presets,
      depositMinMinor: bound(l.depositMin, "up"),
      depositMaxMinor: bound(l.depositMax, "down"),
      withdrawalMinMinor: bound(l.withdrawalMin, "up"),
      withdrawalMaxMinor: bound(l.withdrawalMax, "down"),
      defaultLocale: st.defaultLocale,
      saveCards: st.saveCards,
      closedLoopWithdrawals: st.closedLoopWithdrawals,
      playerCancelWithdrawal: st.playerCancelWithdrawal,
      branding: st.branding
        ? create(CashierBrandingSchema, {
            displayName: st.branding.displayName,
            primaryColor: st.branding.primaryColor,
            backgroundColor: st.branding.backgroundColor,
            textColor: st.branding.textColor,
            buttonTextColor: buttonTextOf(st.branding),
            cornerStyle: st.branding.cornerStyle,
            logoSha256: st.branding.logoSha256 ?? "",
          })
        : undefined,
    }),
    savedCards: v.savedCards.map((c) =>
      create(SavedCardSchema, {
        cardId: c.id,
        card: create(MaskedCardSchema, { maskedNumber: c.cardMasked, brand: c.cardBrand, expiry: c.cardExpiry }),
        holder: c.holder,
        withdrawable: c.withdrawable,
      }),
    ),
    pendingWithdrawals: v.pendingWithdrawals.map((a) => attemptToProto(a)),
    transactions: v.transactions.map((a) => attemptToProto(a)),
  });
}
