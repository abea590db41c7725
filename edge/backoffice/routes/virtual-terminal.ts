/**
 * The Virtual Terminal's routes (views/virtual-terminal.ts): GET draws the sale's form with a fresh form key; each
 * POST is one step, named by `step`: `card` checks the sale's fields and draws the confirmation with the card's
 * fields, `charge` reads the card with the hosted Cashier's own decoders (edge/cashier/card-input.ts) and calls
 * ConsoleMoneyService.TakeMotoPayment, then draws the result. The engine holds every rule (the role, the scope, the
 * frontend's amounts and currencies, the customer's fields, the card) and names the field it refuses; the card is
 * never drawn back into a page, nor logged: a refused charge asks for it again.
 */
import { randomUUID } from "node:crypto";
import type Router from "@koa/router";
import type { Context } from "koa";
import type { Merchant } from "../../../gen/cashier/admin/v1/merchant_pb.js";
import type { FieldError } from "../../pages/kit/components.ts";
import { cardNumberInput, cvvInput, expiryInput } from "../../cashier/card-input.ts";
import { MERCHANT_ID } from "../../../engine/shared/transaction.ts";
import { consoleRefusal, formRefusal } from "../refusal.ts";
import { sendPage } from "../request.ts";
import { confirmForm, resultPage, SALE_FIELDS, type SaleFields, terminalForm } from "../views/virtual-terminal.ts";
import { minorOf } from "./money-amount.ts";
import { consoleGet, consolePost, type PageDeps, refusalPage, type SignedIn } from "./pages.ts";

const blank = (): SaleFields => Object.fromEntries(SALE_FIELDS.map((k) => [k, ""])) as SaleFields;

/** The sale's fields as posted, each bounded (the engine judges them; this only keeps a page from growing). */
function typedOf(form: URLSearchParams): SaleFields {
  const out = blank();
  for (const k of SALE_FIELDS) out[k] = (form.get(k) ?? "").trim().slice(0, k === "reason" ? 1024 : 128);
  return out;
}

/** What the first step can say before the engine does: the fields left empty, and an amount that is not one. */
function saleErrors(s: SignedIn, typed: SaleFields, minor: bigint | undefined): FieldError[] {
  const t = s.kit.tr.t;
  const errors: FieldError[] = [];
  const need = (name: keyof SaleFields, label: string) => {
    if (typed[name] === "") errors.push({ field: `vt-${name.replaceAll("_", "-")}`, message: t("bo.vt.required", { field: label }) });
  };
  if (minor === undefined) errors.push({ field: "vt-amount", message: t("bo.money.amountInvalid", { currency: typed.currency || "EUR", example: "12.50" }) });
  need("pin", t("bo.vt.pin"));
  need("email", t("bo.vt.email"));
  need("first_name", t("bo.vt.firstName"));
  need("last_name", t("bo.vt.lastName"));
  need("country", t("bo.vt.country"));
  if (typed.reason === "") errors.push({ field: "vt-reason", message: t("bo.money.reasonNeeded") });
  return errors;
}

/** The form's field for each field the engine names (Process's names, and the console's own). */
const FIELD_IDS: Readonly<Record<string, string>> = {
  cardNumber: "vt-card-number",
  cardExp: "vt-card-expiry",
  cvv: "vt-card-cvv",
  amount: "vt-amount",
  currency: "vt-currency",
  frontend: "vt-frontend",
  pin: "vt-pin",
  email: "vt-email",
  firstName: "vt-first-name",
  lastName: "vt-last-name",
  country: "vt-country",
  phone: "vt-phone",
  reason: "vt-reason",
};
const CARD_IDS = new Set(["vt-card-number", "vt-card-expiry", "vt-card-cvv"]);

/** The engine's refusal of the fields, each at its field of the form; one named by no field goes above the card. */
function fieldErrors(err: unknown, text: string): FieldError[] {
  const r = consoleRefusal(err);
  const named = r.kind === "invalid" ? r.violations.filter((v) => FIELD_IDS[v.field]) : [];
  if (named.length === 0) return [{ field: "vt-card-number", message: text }];
  return named.map((v) => ({ field: FIELD_IDS[v.field], message: `${v.field}: ${v.description}` }));
}

export function virtualTerminalRoutes(router: Router, deps: PageDeps): void {
  const merchantOf = async (s: SignedIn, merchantId: string): Promise<Merchant> =>
    (await deps.client.settings.getMerchant({ context: s.context, merchantId })).merchant!;
  /** A role without transaction.moto is told so before it types anything (the engine refuses the charge anyway). */
  const mayTake = (ctx: Context, s: SignedIn): boolean => {
    if (s.operator.actions.has("transaction.moto")) return true;
    refusalPage(ctx, s.kit, { kind: "denied", action: "transaction.moto" }, deps.log, undefined, s.operator, s.csrf);
    return false;
  };
  const draw = (s: SignedIn, title: string, body: Parameters<SignedIn["render"]>[2]) => s.render("merchants", title, body);

  consoleGet(router, "/merchants/:id/virtual-terminal", deps, async (ctx, s) => {
    const merchantId = ctx.params.id ?? "";
    if (!MERCHANT_ID.test(merchantId)) return undefined;
    if (!mayTake(ctx, s)) return undefined;
    const m = await merchantOf(s, merchantId);
    const typed = { ...blank(), request_id: randomUUID(), frontend: m.frontends[0]?.name ?? "", currency: m.frontends[0]?.baseCurrency ?? "" };
    return draw(s, s.kit.tr.t("bo.vt.title", { merchant: m.merchantId }), terminalForm(s.kit.tr, { merchant: m, csrf: s.csrf, typed, errors: [] }));
  });

  consolePost(router, "/merchants/:id/virtual-terminal", deps, async (ctx: Context, s, form) => {
    const merchantId = ctx.params.id ?? "";
    if (!MERCHANT_ID.test(merchantId)) {
      ctx.status = 404;
      return;
    }
    const t = s.kit.tr.t;
    // The steps before the charge are refused here too, as the page is; the charge is the engine's to refuse.
    if (form.get("step") !== "charge" && !mayTake(ctx, s)) return;
    const m = await merchantOf(s, merchantId);
    const typed = typedOf(form);
    const minor = minorOf(typed.amount, typed.currency);
    const first = (status: number, errors: FieldError[]) =>
      sendPage(ctx, s.kit, status, draw(s, t("bo.vt.title", { merchant: m.merchantId }), terminalForm(s.kit.tr, { merchant: m, csrf: s.csrf, typed, errors })));
    const saleFaults = saleErrors(s, typed, minor);
    if (saleFaults.length > 0 || minor === undefined) return first(400, saleFaults);
    const confirm = (status: number, errors: FieldError[]) =>
      sendPage(ctx, s.kit, status, draw(s, t("bo.vt.confirmTitle"), confirmForm(s.kit.tr, { merchant: m, csrf: s.csrf, typed, errors, amountMinor: minor })));
    if (form.get("step") !== "charge") return confirm(200, []);

    const number = cardNumberInput(form.get("card_number") ?? "");
    const expiry = expiryInput(form.get("card_expiry") ?? "");
    const cvv = cvvInput(form.get("card_cvv") ?? "");
    const cardFaults: FieldError[] = [];
    if (!number.ok) cardFaults.push({ field: "vt-card-number", message: t("bo.vt.cardNumberInvalid") });
    if (!expiry.ok) cardFaults.push({ field: "vt-card-expiry", message: t("bo.vt.cardExpiryInvalid") });
    if (!cvv.ok) cardFaults.push({ field: "vt-card-cvv", message: t("bo.vt.cardCvvInvalid") });
    if (!number.ok || !expiry.ok || !cvv.ok) return confirm(400, cardFaults);
    try {
      const res = await deps.client.money.takeMotoPayment({
        context: s.context,
        merchantId: m.merchantId,
        frontend: typed.frontend,
        amount: { amountMinor: minor, currency: typed.currency },
        customer: { pin: typed.pin, email: typed.email, firstName: typed.first_name, lastName: typed.last_name, country: typed.country, phone: typed.phone },
        card: { number: number.value, expiry: expiry.value, cvv: cvv.value },
        reason: typed.reason,
        requestId: typed.request_id,
      });
      return sendPage(ctx, s.kit, 200, draw(s, t("bo.vt.resultTitle"), resultPage(s.kit.tr, res.transaction!, m, res.replayed)));
    } catch (err) {
      const refused = formRefusal(err);
      if (!refused) throw err;
      // A sale field at fault goes back to the first step; a card's, or a refusal of the sale's state, asks for the card again.
      const errors = fieldErrors(err, t("bo.money.refused", { reason: refused.text }));
      return errors.every((e) => CARD_IDS.has(e.field)) ? confirm(refused.status, errors) : first(refused.status, errors);
    }
  });
}
