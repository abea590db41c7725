/**
 * The money actions' routes (ConsoleMoneyService): refund and cancel of a sale
 * from its detail page, each in two steps (the form, then a confirmation page
 * with the amount and its currency, whose button makes the call), hold and
 * release of a payout from its page, and bulk rejection or cancellation from
 * the queue, reviewed the same way. The route reads the form, calls the
 * engine and draws the answer; the engine holds every rule (the role, the
 * amounts, four eyes, the states) and names the field it refuses.
 */
import type Router from "@koa/router";
import { PayoutDecision, type PayoutReason } from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import { BULK_APPROVE_MAX, NOTE_MAX, type PayoutReason as EngineReason, reasonMisfit } from "../../../engine/shared/payout-reasons.ts";
import { formRefusal } from "../refusal.ts";
import { seeOther, sendPage } from "../request.ts";
import { REASON_NAMES } from "../views/format.ts";
import { messagePage } from "../views/gate.ts";
import { confirmPage, MONEY_REASON_MAX } from "../views/money-actions.ts";
import { bulkConfirmPage, bulkDecidedPage } from "../views/payout-holds.ts";
import { traceIdOf } from "../../wire/ids.ts";
import { minorOf } from "./money-amount.ts";
import { consolePost, type PageDeps, type SignedIn } from "./pages.ts";
import { detailOf } from "./transactions.ts";

const DECISIONS = { reject: PayoutDecision.REJECT, cancel: PayoutDecision.CANCEL } as const;

/** The reason as typed: the engine judges it (no card number, at most 255); an empty one is asked for here. */
const reasonOf = (form: URLSearchParams) => (form.get("reason") ?? "").trim();

export function moneyActionRoutes(router: Router, deps: PageDeps): void {
  /** The sale's detail page with an error above it, the engine's or the form's. */
  const again = async (ctx: Parameters<Parameters<typeof consolePost>[3]>[0], s: SignedIn, traceId: number, status: number, text: string) =>
    sendPage(ctx, s.kit, status, await detailOf(deps, s, traceId, { kind: "error", text }));

  consolePost(router, "/transactions/:traceId/refund", deps, async (ctx, s, form) => {
    const traceId = traceIdOf(ctx.params.traceId);
    if (traceId === undefined) {
      ctx.status = 404;
      return;
    }
    const t = s.kit.tr.t;
    const { transaction } = await deps.client.work.getTransactionDetail({ context: s.context, traceId });
    const x = transaction!;
    const currency = x.amount?.currency ?? "";
    const amountText = (form.get("amount") ?? "").trim();
    const minor = minorOf(amountText, currency);
    const reason = reasonOf(form);
    const requestId = (form.get("request_id") ?? "").slice(0, 64);
    if (minor === undefined) return again(ctx, s, traceId, 400, t("bo.money.amountInvalid", { currency, example: "12.50" }));
    if (reason === "") return again(ctx, s, traceId, 400, t("bo.money.reasonNeeded"));
    if (form.get("step") !== "confirm") {
      const actions = await deps.client.money.getMoneyActions({ context: s.context, traceId });
      const waiting = actions.refundApproval && actions.refundApproval.login !== s.operator.login;
      const firstOfTwo = !waiting && actions.fourEyesAmount !== undefined && minor > actions.fourEyesAmount.amountMinor;
      return sendPage(
        ctx,
        s.kit,
        200,
        s.render(
          "transactions",
          t("bo.money.confirmRefundTitle"),
          confirmPage(s.kit.tr, "refund", { transaction: x, csrf: s.csrf, reason, amountMinor: minor, amountText, requestId, firstOfTwo }),
        ),
      );
    }
    try {
      const res = await deps.client.money.refundSale({ context: s.context, traceId, amount: { amountMinor: minor, currency }, reason, requestId });
      seeOther(
        ctx,
        res.awaitingSecondApproval
          ? `/transactions/${traceId}?notice=refund-first`
          : `/transactions/${traceId}?notice=refunded&refund=${res.refund?.traceId ?? 0}`,
      );
    } catch (err) {
      const refused = formRefusal(err);
      if (!refused) throw err;
      return again(ctx, s, traceId, refused.status, t("bo.money.refused", { reason: refused.text }));
    }
  });

  consolePost(router, "/transactions/:traceId/cancel", deps, async (ctx, s, form) => {
    const traceId = traceIdOf(ctx.params.traceId);
    if (traceId === undefined) {
      ctx.status = 404;
      return;
    }
    const t = s.kit.tr.t;
    const reason = reasonOf(form);
    if (reason === "") return again(ctx, s, traceId, 400, t("bo.money.reasonNeeded"));
    if (form.get("step") !== "confirm") {
      const { transaction } = await deps.client.work.getTransactionDetail({ context: s.context, traceId });
      return sendPage(
        ctx,
        s.kit,
        200,
        s.render("transactions", t("bo.money.confirmCancelTitle"), confirmPage(s.kit.tr, "cancel", { transaction: transaction!, csrf: s.csrf, reason })),
      );
    }
    try {
      await deps.client.money.cancelSale({ context: s.context, traceId, reason });
      seeOther(ctx, `/transactions/${traceId}?notice=cancelled`);
    } catch (err) {
      const refused = formRefusal(err);
      if (!refused) throw err;
      return again(ctx, s, traceId, refused.status, t("bo.money.refused", { reason: refused.text }));
    }
  });

  for (const action of ["hold", "release"] as const) {
    consolePost(router, `/payouts/:traceId/${action}`, deps, async (ctx, s, form) => {
      const traceId = traceIdOf(ctx.params.traceId);
      if (traceId === undefined) {
        ctx.status = 404;
        return;
      }
      const t = s.kit.tr.t;
      const reason = reasonOf(form).slice(0, MONEY_REASON_MAX * 4);
      const refuse = (status: number, body: string) =>
        sendPage(ctx, s.kit, status, messagePage({ ...s.kit, operator: s.operator, csrf: s.csrf }, { title: t("kit.refused.heading"), body }));
      if (reason === "") return refuse(400, t("bo.money.reasonNeeded"));
      try {
        if (action === "hold") await deps.client.money.holdPayout({ context: s.context, traceId, reason });
        else await deps.client.money.releasePayout({ context: s.context, traceId, reason });
        seeOther(ctx, `/payouts?notice=${action === "hold" ? "held" : "released"}&trace=${traceId}`);
      } catch (err) {
        const refused = formRefusal(err);
        if (!refused) throw err;
        return refuse(refused.status, t("bo.money.refused", { reason: refused.text }));
      }
    });
  }

  consolePost(router, "/payouts/bulk-decide", deps, async (ctx, s, form) => {
    const t = s.kit.tr.t;
    const traceIds = [...new Set(form.getAll("trace_id").map(traceIdOf))].filter((x) => x !== undefined);
    const decision = form.get("decision") === "reject" ? "reject" : form.get("decision") === "cancel" ? "cancel" : undefined;
    const reasonName = form.get("refusal_reason") ?? "";
    const reason = Number(Object.entries(REASON_NAMES).find(([, n]) => n === reasonName)?.[0] ?? 0) as PayoutReason;
    const note = (form.get("refusal_note") ?? "").trim();
    const refuse = (body: string) =>
      sendPage(ctx, s.kit, 400, messagePage({ ...s.kit, operator: s.operator, csrf: s.csrf }, { title: t("kit.refused.heading"), body }));
    // The engine's rules, said in the operator's language before the review: it judges them again.
    if (!decision) return refuse(t("bo.payout.chooseDecision"));
    if (traceIds.length === 0) return refuse(t("bo.payout.selectSome"));
    if (traceIds.length > BULK_APPROVE_MAX) return refuse(t("bo.payout.tooMany", { count: traceIds.length }));
    if (!reason) return refuse(t("bo.payout.chooseReason"));
    if (reasonMisfit(false, REASON_NAMES[reason] as EngineReason)) return refuse(t("bo.payout.reasonForRefusal"));
    if (REASON_NAMES[reason] === "other" && note === "") return refuse(t("bo.payout.noteNeeded"));
    if ([...note].length > NOTE_MAX) return refuse(t("bo.payout.noteTooLong", { max: NOTE_MAX, count: [...note].length }));
    if (form.get("step") !== "confirm") {
      const payouts = await Promise.all(
        traceIds.map(async (traceId) => (await deps.client.work.getTransactionDetail({ context: s.context, traceId })).transaction!),
      );
      const title = t("bo.money.confirmBulkTitle", { decision: t(decision === "reject" ? "bo.money.reject" : "bo.money.cancel"), count: payouts.length });
      return sendPage(ctx, s.kit, 200, s.render("payouts", title, bulkConfirmPage(s.kit.tr, { decision, payouts, reason: reasonName, note, csrf: s.csrf })));
    }
    const res = await deps.client.money.bulkDecidePayouts({ context: s.context, traceIds, decision: DECISIONS[decision], reason, note });
    sendPage(ctx, s.kit, 200, s.render("payouts", t("bo.money.bulkDone"), bulkDecidedPage(s.kit.tr, decision, res.results)));
  });
}
