/**
 * The route that withdraws a sale's refund request waiting for its second approval
 * (ConsoleMoneyService.WithdrawRefundRequest), in the money actions' two steps: the form's reason leads to a
 * confirmation page naming the request as the engine shows it, whose button makes the call; then the sale's page
 * says it was withdrawn. The engine decides who may (the operator who asked, or an admin): another operator's forged
 * form gets the engine's refusal as a 403 page, and the request still waits.
 */
import type Router from "@koa/router";
import { consoleRefusal, formRefusal } from "../refusal.ts";
import { seeOther, sendPage } from "../request.ts";
import { messagePage } from "../views/gate.ts";
import { amountWithCode } from "../views/money-actions.ts";
import { withdrawConfirmPage } from "../views/refund-withdrawal.ts";
import { traceIdOf } from "../../wire/ids.ts";
import { consolePost, type PageDeps } from "./pages.ts";
import { detailOf } from "./transactions.ts";

/** The action the engine names in its refusal (ConsoleError.action) and in the audit log. */
const WITHDRAW_ACTION = "transaction.refund.first.withdraw";

export function refundWithdrawalRoutes(router: Router, deps: PageDeps): void {
  consolePost(router, "/transactions/:traceId/refund-request/withdraw", deps, async (ctx, s, form) => {
    const traceId = traceIdOf(ctx.params.traceId);
    if (traceId === undefined) {
      ctx.status = 404;
      return;
    }
    const t = s.kit.tr.t;
    const again = async (status: number, text: string) => sendPage(ctx, s.kit, status, await detailOf(deps, s, traceId, { kind: "error", text }));
    // The reason as typed: the engine judges it (no card number, at most 255); an empty one is asked for here.
    const reason = (form.get("reason") ?? "").trim();
    if (reason === "") return again(400, t("bo.money.reasonNeeded"));
    if (form.get("step") !== "confirm") {
      const { refundApproval: first } = await deps.client.money.getMoneyActions({ context: s.context, traceId });
      if (!first?.amount) return again(409, t("bo.money.withdrawNone"));
      const amount = amountWithCode(s.kit.tr, first.amount.amountMinor, first.amount.currency);
      const page = withdrawConfirmPage(s.kit.tr, { traceId, first, amount, reason, csrf: s.csrf });
      return sendPage(ctx, s.kit, 200, s.render("transactions", t("bo.money.confirmWithdrawTitle"), page));
    }
    try {
      await deps.client.money.withdrawRefundRequest({ context: s.context, traceId, reason });
      seeOther(ctx, `/transactions/${traceId}?notice=refund-withdrawn`);
    } catch (err) {
      const r = consoleRefusal(err);
      // The engine's refusal of an operator who neither asked nor is an admin: said for this action, not as a role's.
      if (r.kind === "denied" && r.action === WITHDRAW_ACTION) {
        const page = messagePage({ ...s.kit, operator: s.operator, csrf: s.csrf }, { title: t("bo.error.denied.title"), body: t("bo.money.withdrawDenied") });
        return sendPage(ctx, s.kit, 403, page);
      }
      const refused = formRefusal(err);
      if (!refused) throw err;
      return again(refused.status, t("bo.money.refused", { reason: refused.text }));
    }
  });
}
