/**
 * "Check now" in the console's views, on fixtures: the stuck-work page offers
 * a POST form with the CSRF token on each transaction the engine offers a
 * check on (check_offered_trace_ids) when the role holds transaction.check,
 * and none otherwise; the detail page offers the section (with an optional
 * reason) when the route says so (the role and the engine's check_offered).
 */
import t from "tap";
import { create } from "@bufbuild/protobuf";
import { ListStuckWorkResponseSchema } from "../../../../gen/cashier/admin/v1/console_work_service_pb.js";
import { TransactionSchema, TransactionStatus, TransactionType } from "../../../../gen/cashier/engine/v1/transaction_pb.js";
import { consoleTranslator } from "../../../../edge/backoffice/i18n.ts";
import { stuckPage } from "../../../../edge/backoffice/views/stuck.ts";
import { detailPage } from "../../../../edge/backoffice/views/transactions.ts";

const tr = consoleTranslator("en");
const tx = (traceId: number, status: TransactionStatus, type = TransactionType.SALE) =>
  create(TransactionSchema, {
    traceId,
    status,
    transactionType: type,
    merchantId: "m1",
    orderId: `o-${traceId}`,
    amount: { amountMinor: 100n, currency: "USD" },
  });

// 12 and 14 are open, but the engine offers no check on them (say, a challenge the customer still has open).
const work = create(ListStuckWorkResponseSchema, {
  stuckTransactions: [
    tx(11, TransactionStatus.PENDING),
    tx(12, TransactionStatus.PENDING_ASYNC),
    tx(13, TransactionStatus.REQUESTED, TransactionType.PAYOUT),
    tx(14, TransactionStatus.PENDING),
    tx(15, TransactionStatus.PENDING_ASYNC),
  ],
  checkOfferedTraceIds: [11, 15],
});

t.test("the stuck-work page: a check form on each transaction the engine offers a check on, for a role that may check", async (t) => {
  const page = stuckPage(tr, work, { canRedeliver: true, canCheck: true, csrf: "tok", minutes: 15 }).value;
  for (const trace of [11, 15]) {
    t.match(
      page,
      new RegExp(
        `<form method="post" action="/transactions/${trace}/check" class="inline-actions"><input type="hidden" name="csrf_token" value="tok"><input type="hidden" name="from" value="stuck">`,
      ),
    );
    t.match(
      page,
      new RegExp(`<button type="submit" class="button secondary" id="check-${trace}" aria-label="Check now: transaction ${trace}">Check now</button>`),
    );
  }
  t.notMatch(page, /\/transactions\/13\/check/, "a payout waiting for its decision is decided in Payouts, not checked");
  t.notMatch(page, /\/transactions\/1[24]\/check/, "an open transaction the engine offers no check on has no button");
  t.match(page, /<th scope="col"[^>]*>Action<\/th>/, "the column is named");
  const viewer = stuckPage(tr, work, { canRedeliver: false, canCheck: false, csrf: "tok", minutes: 15 }).value;
  t.notMatch(viewer, /\/check"/, "no form when the role may not check");
  t.notMatch(viewer, />Action</);
});

t.test("the detail page: the check section only when offered to the operator", async (t) => {
  const view = (status: TransactionStatus, canCheck: boolean) =>
    detailPage(tr, { transaction: tx(21, status), cascade: [], related: [], callbacks: [], canRedeliver: canCheck, canCheck, csrf: "tok" }).value;
  const open = view(TransactionStatus.PENDING, true);
  t.match(
    open,
    /<form method="post" action="\/transactions\/21\/check"><input type="hidden" name="csrf_token" value="tok"><input type="hidden" name="from" value="detail">/,
  );
  t.match(open, /<label for="check-reason">Reason \(optional\)<\/label>/);
  t.match(open, /id="check-reason" name="reason" type="text" value="" maxlength="255"/);
  t.match(open, /id="check-now">Check now<\/button>/);
  t.notMatch(view(TransactionStatus.PENDING, false), /check-now/, "not offered (a viewer, or nothing for a check to do)");
});
