/**
 * The deposit form: GET shows it, POST decodes it (the shape of each field;
 * the engine applies the rules and names what it refuses), calls
 * SubmitDeposit and sends the browser on with a 303: to the way to the 3-D
 * Secure check when the sale waits for it (bank-check.ts; the check comes back
 * to `return`), else to the result page. GET return: after a challenge, the session's newest
 * deposit's result. The card number and code are never shown again. Each
 * rendering of the form gets a fresh random submission key; the engine names
 * the order by it, so a second POST of one form answers the first's order.
 */
import { randomBytes } from "node:crypto";
import type Router from "@koa/router";
import type { Context } from "koa";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { SessionIntent, type SubmitDepositRequest, SubmitDepositRequestSchema } from "../../../gen/cashier/engine/v1/cashier_service_pb.js";
import { TransactionStatus, TransactionType } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import type { FieldError } from "../../pages/kit/components.ts";
import { amountInputValue, parseAmountInput } from "../amount-input.ts";
import { maskCardNumbers } from "../../../engine/shared/card.ts";
import { cardNumberInput, cvvInput, expiryInput, holderInput } from "../card-input.ts";
import { intentPage, sessionPath } from "../paths.ts";
import { type DepositValues, NEW_CARD, SUBMISSION_KEY_FIELD, depositPage } from "../views/deposit.ts";
import { amountError, fieldErrorsOf } from "./form-errors.ts";
import { expiryPast, outOfBounds, unreadAmountMessage } from "../form-checks.ts";
import { clientAddress } from "../../middleware/client.ts";
import { type CashierDeps, isFieldRefusal, refuse, seeOther, send } from "./respond.ts";
import { type Loaded, guardedForm, loadSession, one } from "./session-pages.ts";
import { CONFIRM_FIELD, confirmPage } from "../views/confirm.ts";
import { savedCardLabel } from "../views/parts.ts";
import { SUBMISSION_KEY_SHAPE } from "../../../engine/shared/session-tokens.ts";

type Decoded = { ok: true; request: SubmitDepositRequest } | { ok: false; errors: FieldError[] };

/** The form -> SubmitDepositRequest, or the fields whose shape is wrong. */
export function decodeDeposit(form: URLSearchParams, l: Loaded, ip: string): Decoded {
  const { session } = l.frame;
  const tr = l.c.tr;
  const t = tr.t;
  const errors: FieldError[] = [];
  const currency = session.currency;

  let amountMinor: bigint | undefined = session.amount?.amountMinor;
  if (amountMinor === undefined) {
    const typed = one(form, "amount").trim();
    const preset = one(form, "preset");
    if (typed) {
      const parsed = parseAmountInput(typed, currency, tr.locale);
      if (!parsed.ok) errors.push({ field: "amount", message: unreadAmountMessage(tr, session, "deposit", parsed) });
      else if (outOfBounds(session, "deposit", parsed.minor)) errors.push({ field: "amount", message: amountError(tr, session, "deposit", false) });
      else amountMinor = parsed.minor;
    } else if (preset && session.frontendSettings?.depositPresetsMinor.some((p) => String(p) === preset)) {
      amountMinor = BigInt(preset);
    } else errors.push({ field: "amount", message: t("cashier.amount.choose") });
  }

  const source = session.savedCards.length > 0 ? one(form, "source") : NEW_CARD;
  let chosen: MessageInitShape<typeof SubmitDepositRequestSchema>["source"];
  let savedCardCvv = "";
  if (source !== NEW_CARD) {
    if (!session.savedCards.some((c) => c.cardId === source)) errors.push({ field: "source", message: t("cashier.error.source") });
    // A new card typed beside a chosen saved card (a page without scripts shows both): which card to charge is the
    // customer's to say, never a guess.
    if (one(form, "card_number").trim()) errors.push({ field: "card_number", message: t("cashier.error.twoCards") });
    const cvv = cvvInput(one(form, "saved_card_cvv"));
    if (!cvv.ok) errors.push({ field: "saved_card_cvv", message: t("cashier.error.cvv") });
    if (errors.length === 0 && cvv.ok) {
      chosen = { case: "savedCardId", value: source };
      savedCardCvv = cvv.value;
    }
  } else {
    const number = cardNumberInput(one(form, "card_number"));
    const expiry = expiryInput(one(form, "card_exp"));
    const cvv = cvvInput(one(form, "cvv"));
    const holder = holderInput(one(form, "holder"));
    if (!number.ok) errors.push({ field: "card_number", message: t("cashier.error.cardNumber") });
    // An expiry in the past is named with the shape mistakes: the customer mends the whole form in one round.
    const expired = expiry.ok && expiryPast(expiry.value);
    if (!expiry.ok || expired) errors.push({ field: "card_exp", message: t("cashier.error.expiry") });
    if (!cvv.ok) errors.push({ field: "cvv", message: t("cashier.error.cvv") });
    if (!holder.ok) errors.push({ field: "holder", message: t("cashier.error.holder") });
    if (number.ok && expiry.ok && !expired && cvv.ok && holder.ok) {
      chosen = {
        case: "newCard",
        value: { card: { number: number.value, expiry: expiry.value, cvv: cvv.value }, holder: holder.value, save: one(form, "save_card") === "1" },
      };
    }
  }
  if (errors.length > 0 || amountMinor === undefined || !chosen) return { ok: false, errors };
  const request = create(SubmitDepositRequestSchema, {
    sessionToken: l.frame.sessionToken,
    requesterIp: ip,
    returnUrl: sessionPath(l.frame.sessionToken, "return", l.frame.parent),
    amount: { amountMinor, currency },
    source: chosen,
    savedCardCvv,
    // Its shape is the engine's to check (a form without one is refused by name, then shown again with a fresh key).
    submissionKey: one(form, SUBMISSION_KEY_FIELD).slice(0, 100),
  });
  return { ok: true, request };
}

/**
 * What the form showed, to show again: never the card number nor a code, and a card number typed into another
 * field (the amount, the holder's name) comes back masked.
 */
function valuesOf(form: URLSearchParams): DepositValues {
  return {
    amount: maskCardNumbers(one(form, "amount")),
    preset: one(form, "preset"),
    source: one(form, "source") || undefined,
    holder: maskCardNumbers(one(form, "holder")),
    save: one(form, "save_card") === "1",
  };
}

/**
 * "Try another card" after a decline keeps the amount (`?amount=<minor units>`): chosen again when it is a preset,
 * else written into the field in the page's language. Only a hint for the form: the submit is checked as any.
 */
export function retryValues(l: Loaded, amount: unknown): DepositValues | undefined {
  const { session } = l.frame;
  if (session.amount || typeof amount !== "string" || !/^[1-9][0-9]{0,14}$/.test(amount)) return undefined;
  const minor = BigInt(amount);
  if (session.frontendSettings?.depositPresetsMinor.some((p) => p === minor)) return { preset: amount };
  return { amount: amountInputValue(minor, session.currency, l.c.tr.locale) };
}

export function depositRoutes(router: Router, deps: CashierDeps): void {
  // A form shown again with its mistakes keeps the key it was sent with: mended and sent, it is still the one order
  // (a page brought back from the back-forward cache, whose card fields were cleared, leads to the order it made).
  const show = (ctx: Context, l: Loaded, values?: DepositValues, errors?: FieldError[], sentKey?: string) =>
    send(
      ctx,
      depositPage(l.c, l.frame, {
        csrfToken: deps.csrf.token(l.frame.sessionToken, l.frame.parent),
        submissionKey: sentKey && SUBMISSION_KEY_SHAPE.test(sentKey) ? sentKey : randomBytes(16).toString("base64url"),
        values,
        errors,
      }),
    );

  router.get("/cashier/s/:session/deposit", async (ctx) => {
    const l = await loadSession(ctx, deps);
    if (!l) return;
    if (l.frame.session.intent !== SessionIntent.DEPOSIT)
      return seeOther(ctx, sessionPath(l.frame.sessionToken, intentPage(l.frame.session.intent), l.frame.parent));
    show(ctx, l, retryValues(l, ctx.query.amount));
  });

  router.post("/cashier/s/:session/deposit", async (ctx) => {
    const form = await guardedForm(ctx, deps);
    if (!form) return;
    const l = await loadSession(ctx, deps);
    if (!l) return;
    // A withdrawal session's form is on its own page, as a GET here would be sent: no deposit, no deposit form.
    if (l.frame.session.intent !== SessionIntent.DEPOSIT)
      return seeOther(ctx, sessionPath(l.frame.sessionToken, intentPage(l.frame.session.intent), l.frame.parent));
    const decoded = decodeDeposit(form, l, clientAddress(ctx));
    if (!decoded.ok) return show(ctx, l, valuesOf(form), decoded.errors, one(form, SUBMISSION_KEY_FIELD));
    try {
      const { transaction } = await deps.cashier.submitDeposit(decoded.request);
      const x = transaction!;
      // A 3-D Secure check is reached through a page of its own (challenge/<trace_id>): an acquirer's check is on its
      // own site, where no redirect of this form may lead under the page's CSP form-action.
      if (x.status === TransactionStatus.PENDING_ASYNC && x.redirectUrl)
        return seeOther(ctx, sessionPath(l.frame.sessionToken, `challenge/${x.traceId}`, l.frame.parent));
      seeOther(ctx, sessionPath(l.frame.sessionToken, `result/${x.traceId}`, l.frame.parent));
    } catch (err) {
      if (isFieldRefusal(err)) return show(ctx, l, valuesOf(form), fieldErrorsOf(err, l.c.tr, l.frame.session, "deposit"), one(form, SUBMISSION_KEY_FIELD));
      refuse(ctx, deps, err, l.frame.session);
    }
  });

  router.post("/cashier/s/:session/cards/delete", async (ctx) => {
    const form = await guardedForm(ctx, deps);
    if (!form) return;
    const l = await loadSession(ctx, deps);
    if (!l) return;
    const cardId = one(form, "card_id");
    const card = l.frame.session.savedCards.find((c) => c.cardId === cardId);
    const page = intentPage(l.frame.session.intent);
    if (!card) return seeOther(ctx, sessionPath(l.frame.sessionToken, page, l.frame.parent));
    if (one(form, CONFIRM_FIELD) !== "1") {
      // Remove asks first, on a page of its own (scripts or not): the sealed number is erased for good.
      const tr = l.c.tr;
      return send(
        ctx,
        confirmPage(l.c, l.frame, {
          title: tr.t("cashier.cards.removeConfirm.title"),
          body: tr.t("cashier.cards.removeConfirm.body", { card: savedCardLabel(tr, card) }),
          action: "cards/delete",
          fields: { card_id: cardId },
          yes: tr.t("cashier.cards.removeConfirm.yes"),
          no: tr.t("cashier.cards.removeConfirm.no"),
          back: page,
          csrfToken: deps.csrf.token(l.frame.sessionToken, l.frame.parent),
        }),
      );
    }
    try {
      await deps.cashier.deleteSavedCard({ sessionToken: l.frame.sessionToken, cardId });
      seeOther(ctx, sessionPath(l.frame.sessionToken, intentPage(l.frame.session.intent), l.frame.parent));
    } catch (err) {
      refuse(ctx, deps, err, l.frame.session);
    }
  });

  router.get("/cashier/s/:session/return", async (ctx) => {
    const l = await loadSession(ctx, deps);
    if (!l) return;
    const newest = l.frame.session.transactions.find((x) => x.transactionType === TransactionType.SALE);
    seeOther(ctx, sessionPath(l.frame.sessionToken, newest ? `result/${newest.traceId}` : "deposit", l.frame.parent));
  });
}
