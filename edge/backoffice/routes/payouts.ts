/**
 * /payouts: the queue, one payout with its customer's context, a decision
 * (approve, reject, cancel with a listed reason and a note; the engine keeps
 * four eyes above the merchant's amount and records `backoffice:<login>`),
 * and bulk approval.
 */
import type Router from "@koa/router";
import { PayoutDecision, PayoutReason, RefusedForm } from "../../../gen/cashier/admin/v1/console_work_service_pb.js";
import { consoleRefusal } from "../refusal.ts";
import { namedIn, seeOther, sendPage } from "../request.ts";
import { BULK_APPROVE_MAX, NOTE_MAX, type PayoutReason as EngineReason, reasonMisfit } from "../../../engine/shared/payout-reasons.ts";
import { REASON_NAMES } from "../views/format.ts";
import { bulkResultPage, DECISION_NAMES, payoutPage, queuePage } from "../views/payouts.ts";
import type { ConsoleKey } from "../i18n.ts";
import { consoleGet, consolePost, type PageDeps } from "./pages.ts";
import { fileRefusedForm } from "./refused-form.ts";
import { traceIdOf } from "../../wire/ids.ts";
import { TransactionStatus } from "../../../gen/cashier/engine/v1/transaction_pb.js";
import { html, type Html } from "../../pages/kit/html.ts";
import { heldTable, holdSection } from "../views/payout-holds.ts";
import type { SignedIn } from "./pages.ts";

/** The payout page's hold section, for a role that holds payouts and a payout still waiting. */
async function holdOf(deps: PageDeps, s: SignedIn, traceId: number, status: TransactionStatus | undefined): Promise<Html> {
  if (!s.operator.actions.has("payout.hold") || status !== TransactionStatus.REQUESTED) return html``;
  const { hold } = await deps.client.money.getMoneyActions({ context: s.context, traceId });
  return holdSection(s.kit.tr, { traceId, hold, csrf: s.csrf });
}

const byName = (names: Readonly<Record<number, string>>, name: string | null) => Number(Object.entries(names).find(([, n]) => n === name)?.[0] ?? 0);

const NOTICES: Record<string, ConsoleKey> = {
  approved: "bo.payout.noticeApproved",
  first: "bo.payout.noticeFirst",
  rejected: "bo.payout.noticeRejected",
  cancelled: "bo.payout.noticeCancelled",
  held: "bo.money.noticeHeld",
  released: "bo.money.noticeReleased",
};

/** The message key when the reason does not fit the decision (the engine's rule, said in the operator's language). */
function reasonFit(decision: PayoutDecision, reason: PayoutReason): "bo.payout.reasonForApproval" | "bo.payout.reasonForRefusal" | undefined {
  const misfit = reasonMisfit(decision === PayoutDecision.APPROVE, REASON_NAMES[reason] as EngineReason);
  return misfit === "not-an-approval-reason" ? "bo.payout.reasonForApproval" : misfit === "an-approval-reason" ? "bo.payout.reasonForRefusal" : undefined;
}

/** A refusal's message, by key. */
type Why = { key: ConsoleKey; params?: Record<string, number> };

/** What is wrong with a decision's reason and note, the first thing first (the engine's rules, in the operator's language). */
function reasonProblem(decision: PayoutDecision, reason: PayoutReason, note: string): Why | undefined {
  if (!reason) return { key: "bo.payout.chooseReason" };
  const fit = reasonFit(decision, reason);
  if (fit) return { key: fit };
  if (reason === PayoutReason.OTHER && !note) return { key: "bo.payout.noteNeeded" };
  if ([...note].length > NOTE_MAX) return { key: "bo.payout.noteTooLong", params: { max: NOTE_MAX, count: [...note].length } };
  return undefined;
}

export function payoutRoutes(router: Router, deps: PageDeps): void {
  consoleGet(router, "/payouts", deps, async (ctx, s) => {
    const res = await deps.client.work.listPayoutQueue({ context: s.context, pageSize: 50, pageToken: String(ctx.query.page_token ?? "").slice(0, 512) });
    // Held payouts wait apart, under the queue (money-actions.ts); their first page is enough to see them.
    const held = await deps.client.work.listPayoutQueue({ context: s.context, pageSize: 50, held: true });
    const t = s.kit.tr.t;
    const key = namedIn(NOTICES, ctx.query.notice);
    const trace = String(ctx.query.trace ?? "");
    return s.render(
      "payouts",
      t("bo.nav.payouts"),
      html`${queuePage(s.kit.tr, {
        payouts: res.payouts,
        nextPageToken: res.nextPageToken,
        canDecide: s.operator.actions.has("payout.decide"),
        csrf: s.csrf,
        notice: key && traceIdOf(trace) ? { kind: "success", text: t(key, { trace }) } : undefined,
      })}${heldTable(s.kit.tr, held.payouts)}`,
    );
  });

  consoleGet(router, "/payouts/:traceId", deps, async (ctx, s) => {
    const traceId = traceIdOf(ctx.params.traceId);
    if (traceId === undefined) return undefined;
    const context = await deps.client.work.getPayoutContext({ context: s.context, traceId });
    return s.render(
      "payouts",
      s.kit.tr.t("bo.payout.title", { trace: traceId }),
      html`${payoutPage(s.kit.tr, { context, canDecide: s.operator.actions.has("payout.decide"), csrf: s.csrf, login: s.operator.login })}${await holdOf(
        deps,
        s,
        traceId,
        context.payout?.transaction?.status,
      )}`,
    );
  });

  consolePost(router, "/payouts/:traceId/decision", deps, async (ctx, s, form) => {
    const traceId = traceIdOf(ctx.params.traceId);
    if (traceId === undefined) {
      ctx.status = 404;
      return;
    }
    const decision = byName(DECISION_NAMES, form.get("decision")) as PayoutDecision;
    const reason = byName(REASON_NAMES, form.get("reason")) as PayoutReason;
    const note = (form.get("note") ?? "").trim();
    const t = s.kit.tr.t;
    const again = async (message: string, status: number) => {
      const context = await deps.client.work.getPayoutContext({ context: s.context, traceId });
      sendPage(
        ctx,
        s.kit,
        status,
        s.render(
          "payouts",
          t("bo.payout.title", { trace: traceId }),
          payoutPage(s.kit.tr, { context, canDecide: true, csrf: s.csrf, login: s.operator.login, errors: [{ field: "reason", message }] }),
        ),
      );
    };
    // Refused here, in the operator's language, and filed with the engine first: audited, or "Not allowed" for a role
    // that may not decide at all.
    const why: Why | undefined = decision ? reasonProblem(decision, reason, note) : { key: "bo.payout.chooseDecision" };
    if (why) {
      await fileRefusedForm(deps, s, RefusedForm.PAYOUT_DECISION, { traceIds: [traceId] }, why);
      return again(t(why.key, why.params), 400);
    }
    try {
      const res = await deps.client.work.decidePayout({ context: s.context, traceId, decision, reason, note });
      const notice = res.awaitingSecondApproval
        ? "first"
        : decision === PayoutDecision.APPROVE
          ? "approved"
          : decision === PayoutDecision.REJECT
            ? "rejected"
            : "cancelled";
      seeOther(ctx, `/payouts?notice=${notice}&trace=${traceId}`);
    } catch (err) {
      const refusal = consoleRefusal(err);
      if (refusal.kind === "four-eyes-same-operator") return again(t("bo.payout.fourEyesYours"), 409);
      if (refusal.kind === "four-eyes-issued-access") return again(t("bo.payout.fourEyesIssued"), 409);
      if (refusal.kind === "invalid" || refusal.kind === "refused") return again(refusal.message, refusal.kind === "invalid" ? 400 : 409);
      throw err;
    }
  });

  consolePost(router, "/payouts/bulk-approve", deps, async (ctx, s, form) => {
    const traceIds = [...new Set(form.getAll("trace_id").map(traceIdOf))].filter((x) => x !== undefined);
    const reason = byName(REASON_NAMES, form.get("reason")) as PayoutReason;
    const note = (form.get("note") ?? "").trim();
    const t = s.kit.tr.t;
    // The engine approves at most BULK_APPROVE_MAX at once: more are refused whole, not cut to the first ones.
    const why: Why | undefined =
      traceIds.length === 0
        ? { key: "bo.payout.selectSome" }
        : traceIds.length > BULK_APPROVE_MAX
          ? { key: "bo.payout.tooMany", params: { count: traceIds.length } }
          : reasonProblem(PayoutDecision.APPROVE, reason, note);
    if (why) {
      // Filed with the engine first: audited, or "Not allowed" for a role that may not decide at all.
      await fileRefusedForm(deps, s, RefusedForm.BULK_APPROVAL, { traceIds }, why);
      const res = await deps.client.work.listPayoutQueue({ context: s.context, pageSize: 50 });
      const message = t(why.key, why.params);
      return sendPage(
        ctx,
        s.kit,
        400,
        s.render(
          "payouts",
          t("bo.nav.payouts"),
          queuePage(s.kit.tr, {
            payouts: res.payouts,
            nextPageToken: res.nextPageToken,
            canDecide: true,
            csrf: s.csrf,
            notice: { kind: "error", text: message },
          }),
        ),
      );
    }
    const res = await deps.client.work.bulkApprovePayouts({ context: s.context, traceIds, reason, note });
    sendPage(ctx, s.kit, 200, s.render("payouts", t("bo.payout.bulkDone"), bulkResultPage(s.kit.tr, res.results)));
  });
}
