/**
 * The engine names a form's faults by the request's field paths
 * (`new_card.card.number`, `saved_card_cvv`, ...); the page ties each to its
 * input and words it from the catalogue, never with the engine's English text.
 */
import type { ConnectError } from "@connectrpc/connect";
import type { CashierSession } from "../../../gen/cashier/engine/v1/cashier_service_pb.js";
import { ErrorDetailSchema } from "../../../gen/cashier/engine/v1/errors_pb.js";
import type { FieldError } from "../../pages/kit/components.ts";
import type { MessageKey, Translator } from "../../pages/kit/i18n.ts";
import { currencyExponent } from "../../../engine/shared/money.ts";

/** The engine's field path -> the form's input id and the message key. */
const FIELDS: Readonly<Record<string, { field: string; key: MessageKey }>> = {
  "new_card.card.number": { field: "card_number", key: "cashier.error.cardNumber" },
  "new_card.card.expiry": { field: "card_exp", key: "cashier.error.expiry" },
  "new_card.card.cvv": { field: "cvv", key: "cashier.error.cvv" },
  "new_card.holder": { field: "holder", key: "cashier.error.holder" },
  saved_card_id: { field: "source", key: "cashier.error.source" },
  saved_card_cvv: { field: "saved_card_cvv", key: "cashier.error.cvv" },
};

/** The amount's message: its bounds when the frontend has them, else the shape. */
export function amountError(tr: Translator, session: CashierSession, intent: "deposit" | "withdrawal", shape: boolean): string {
  const s = session.frontendSettings;
  const currency = session.currency;
  let min = intent === "deposit" ? (s?.depositMinMinor ?? 0n) : (s?.withdrawalMinMinor ?? 0n);
  let max = intent === "deposit" ? (s?.depositMaxMinor ?? 0n) : (s?.withdrawalMaxMinor ?? 0n);
  const balance = intent === "withdrawal" ? session.balance?.amountMinor : undefined;
  if (balance !== undefined && (max === 0n || balance < max)) max = balance;
  if (min < 0n) min = 0n;
  if (!shape && (min > 0n || max > 0n)) {
    const amount = (v: bigint) => tr.amount(v, currency);
    if (min > 0n && max > 0n) return tr.t("cashier.amount.errorRange", { min: amount(min), max: amount(max) });
    if (min > 0n) return tr.t("cashier.amount.errorMin", { min: amount(min) });
    return tr.t("cashier.amount.errorMax", { max: amount(max) });
  }
  return tr.t("cashier.amount.error", { currency, decimals: currencyExponent(currency) ?? 2 });
}

export function fieldErrorsOf(err: ConnectError, tr: Translator, session: CashierSession, intent: "deposit" | "withdrawal"): FieldError[] {
  const [detail] = err.findDetails(ErrorDetailSchema);
  const out: FieldError[] = [];
  for (const v of detail?.violations ?? []) {
    if (v.field === "amount") {
      out.push({ field: "amount", message: amountError(tr, session, intent, false) });
      continue;
    }
    const known = FIELDS[v.field];
    if (known) {
      const closedLoop = intent === "withdrawal" && /deposit/i.test(v.description);
      out.push({ field: known.field, message: tr.t(closedLoop ? "cashier.error.closedLoop" : known.key) });
    }
  }
  // A refusal of no field the page has (it should not happen): said at the top, never in the engine's words.
  if (out.length === 0) out.push({ field: "main", message: tr.t("cashier.error.field") });
  return dedupe(out);
}

function dedupe(errors: FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((e) => {
    if (seen.has(e.field)) return false;
    seen.add(e.field);
    return true;
  });
}
