/**
 * The withdrawal form (SubmitWithdrawal with the session's order_id) and the
 * cancel button of a pending withdrawal (CancelWithdrawal; the engine refuses
 * it unless the frontend allows it). After each, a 303: to the result, or
 * back to the withdrawal page with the list as it now stands.
 */
import type Router from "@koa/router";
import type { Context } from "koa";
import { ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema, ErrorReason } from "../../../gen/cashier/engine/v1/errors_pb.js";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { SessionIntent, type SubmitWithdrawalRequest, SubmitWithdrawalRequestSchema } from "../../../gen/cashier/engine/v1/cashier_service_pb.js";
import type { FieldError } from "../../pages/kit/components.ts";
import { parseAmountInput } from "../amount-input.ts";
import { maskCardNumbers } from "../../../engine/shared/card.ts";
import { cardNumberInput, expiryInput, holderInput } from "../card-input.ts";
import { intentPage, sessionPath } from "../paths.ts";
import { NEW_CARD } from "../views/deposit.ts";
import { noticePage } from "../views/notice.ts";
import { type CancelNotice, type WithdrawalValues, dateText, withdrawalPage } from "../views/withdrawal.ts";
import { CONFIRM_FIELD, confirmPage } from "../views/confirm.ts";
import { amountError, fieldErrorsOf } from "./form-errors.ts";
import { expiryPast, outOfBounds, unreadAmountMessage } from "../form-checks.ts";
import { clientAddress } from "../../middleware/client.ts";
import { type CashierDeps, isFieldRefusal, refuse, seeOther, send } from "./respond.ts";
import { type Loaded, guardedForm, loadSession, one } from "./session-pages.ts";
import { traceIdOf } from "../../wire/ids.ts";

type Decoded = { ok: true; request: SubmitWithdrawalRequest } | { ok: false; errors: FieldError[] };

export function decodeWithdrawal(form: URLSearchParams, l: Loaded, ip: string): Decoded {
  const { session } = l.frame;
  const tr = l.c.tr;
  const t = tr.t;
  const errors: FieldError[] = [];
  let amountMinor = session.amount?.amountMinor;
  if (amountMinor === undefined) {
    const typed = one(form, "amount");
    const parsed = parseAmountInput(typed, session.currency, tr.locale);
    if (!typed.trim()) errors.push({ field: "amount", message: amountError(tr, session, "withdrawal", false) });
    else if (!parsed.ok) errors.push({ field: "amount", message: unreadAmountMessage(tr, session, "withdrawal", parsed) });
    else if (outOfBounds(session, "withdrawal", parsed.minor)) errors.push({ field: "amount", message: amountError(tr, session, "withdrawal", false) });
    else amountMinor = parsed.minor;
  }
  const cards = session.savedCards.filter((c) => c.withdrawable);
  const destination = cards.length > 0 ? one(form, "destination") : NEW_CARD;
  let chosen: MessageInitShape<typeof SubmitWithdrawalRequestSchema>["destination"];
  if (destination !== NEW_CARD) {
    // A new card typed beside a chosen saved card (a page without scripts shows both): the customer says which.
    if (one(form, "card_number").trim()) errors.push({ field: "card_number", message: t("cashier.error.twoCardsWithdrawal") });
    else if (cards.some((c) => c.cardId === destination)) chosen = { case: "savedCardId", value: destination };
    else errors.push({ field: "source", message: t("cashier.error.source") });
  } else {
    const number = cardNumberInput(one(form, "card_number"));
    const expiry = expiryInput(one(form, "card_exp"));
    const holder = holderInput(one(form, "holder"));
    if (!number.ok) errors.push({ field: "card_number", message: t("cashier.error.cardNumber") });
    const expired = expiry.ok && expiryPast(expiry.value);
    if (!expiry.ok || expired) errors.push({ field: "card_exp", message: t("cashier.error.expiry") });
    if (!holder.ok) errors.push({ field: "holder", message: t("cashier.error.holder") });
    if (number.ok && expiry.ok && !expired && holder.ok)
      chosen = { case: "newCard", value: { card: { number: number.value, expiry: expiry.value }, holder: holder.value } };
  }
  if (errors.length > 0 || amountMinor === undefined || !chosen) return { ok: false, errors };
  return {
    ok: true,
    request: create(SubmitWithdrawalRequestSchema, {
      sessionToken: l.frame.sessionToken,
      requesterIp: ip,
      amount: { amountMinor, currency: session.currency },
      destination: chosen,
    }),
  };
}

/** What the form showed, to show again; a card number typed into the amount or the holder's name comes back masked. */
function valuesOf(form: URLSearchParams): WithdrawalValues {
  return {
    amount: maskCardNumbers(one(form, "amount")),
    destination: one(form, "destination") || undefined,
    holder: maskCardNumbers(one(form, "holder")),
  };
}

export function withdrawalRoutes(router: Router, deps: CashierDeps): void {
  const show = (ctx: Context, l: Loaded, values?: WithdrawalValues, errors?: FieldError[], cancelled?: CancelNotice) =>
    send(ctx, withdrawalPage(l.c, l.frame, { csrfToken: deps.csrf.token(l.frame.sessionToken, l.frame.parent), values, errors, cancelled }));

  router.get("/cashier/s/:session/withdrawal", async (ctx) => {
    const l = await loadSession(ctx, deps);
    if (!l) return;
    if (l.frame.session.intent !== SessionIntent.WITHDRAWAL)
      return seeOther(ctx, sessionPath(l.frame.sessionToken, intentPage(l.frame.session.intent), l.frame.parent));
    show(ctx, l, undefined, undefined, ctx.query.cancelled === "1" ? "done" : ctx.query.cancelled === "late" ? "late" : undefined);
  });

  router.post("/cashier/s/:session/withdrawal", async (ctx) => {
    const form = await guardedForm(ctx, deps);
    if (!form) return;
    const l = await loadSession(ctx, deps);
    if (!l) return;
    // A deposit session's form is on its own page, as a GET here would be sent: no payout, no payout form.
    if (l.frame.session.intent !== SessionIntent.WITHDRAWAL)
      return seeOther(ctx, sessionPath(l.frame.sessionToken, intentPage(l.frame.session.intent), l.frame.parent));
    const decoded = decodeWithdrawal(form, l, clientAddress(ctx));
    if (!decoded.ok) return show(ctx, l, valuesOf(form), decoded.errors);
    try {
      const { transaction } = await deps.cashier.submitWithdrawal(decoded.request);
      seeOther(ctx, sessionPath(l.frame.sessionToken, `result/${transaction!.traceId}`, l.frame.parent));
    } catch (err) {
      if (isFieldRefusal(err)) return show(ctx, l, valuesOf(form), fieldErrorsOf(err, l.c.tr, l.frame.session, "withdrawal"));
      refuse(ctx, deps, err, l.frame.session);
    }
  });

  router.post("/cashier/s/:session/cancel", async (ctx) => {
    const form = await guardedForm(ctx, deps);
    if (!form) return;
    const l = await loadSession(ctx, deps);
    if (!l) return;
    const traceId = traceIdOf(one(form, "trace_id"));
    if (traceId === undefined) return send(ctx, noticePage(l.c, "notFound"));
    if (one(form, CONFIRM_FIELD) !== "1") {
      // The list's Cancel asks first; a withdrawal no longer listed goes back to the page, which shows where it is.
      const w = l.frame.session.pendingWithdrawals.find((p) => p.traceId === traceId);
      if (!w) return seeOther(ctx, sessionPath(l.frame.sessionToken, "withdrawal", l.frame.parent, { cancelled: "late" }));
      const tr = l.c.tr;
      return send(
        ctx,
        confirmPage(l.c, l.frame, {
          title: tr.t("cashier.withdrawal.cancelConfirm.title"),
          body: tr.t("cashier.withdrawal.cancelConfirm.body", {
            amount: tr.amount(w.amount?.amountMinor ?? 0n, w.amount?.currency ?? ""),
            date: dateText(tr, w),
          }),
          action: "cancel",
          fields: { trace_id: String(traceId) },
          yes: tr.t("cashier.withdrawal.cancelConfirm.yes"),
          no: tr.t("cashier.withdrawal.cancelConfirm.no"),
          back: "withdrawal",
          csrfToken: deps.csrf.token(l.frame.sessionToken, l.frame.parent),
        }),
      );
    }
    try {
      await deps.cashier.cancelWithdrawal({ sessionToken: l.frame.sessionToken, traceId });
      // Back to the page, which says so: a list that is simply one shorter leaves the customer unsure.
      seeOther(ctx, sessionPath(l.frame.sessionToken, "withdrawal", l.frame.parent, { cancelled: "1" }));
    } catch (err) {
      // Decided meanwhile (an operator, the processor), or not the customer's: back to the page, whose list and
      // state say where the withdrawal is now; a stranger's trace_id learns nothing more than that.
      // Only those two reasons: NOT_ALLOWED_BY_FRONTEND (the merchant switched cancelling off) is the page's refusal.
      const [detail] = ConnectError.from(err).findDetails(ErrorDetailSchema);
      if (detail?.reason === ErrorReason.INVALID_STATE || detail?.reason === ErrorReason.NOT_FOUND)
        return seeOther(ctx, sessionPath(l.frame.sessionToken, "withdrawal", l.frame.parent, { cancelled: "late" }));
      refuse(ctx, deps, err, l.frame.session);
    }
  });
}
