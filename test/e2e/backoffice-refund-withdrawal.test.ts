/**
 * Withdrawing a refund request that waits for its second approval, over the Backoffice's own HTTP pages against the
 * running service: the sale's page offers *Withdraw request* to the operator who asked (and to admins), not to another
 * payouts operator; that operator's forged form is refused by the engine as a 403 page and the request still waits;
 * the asker's withdrawal goes through its confirmation page (who asked, the amount and its currency), answers 303, and
 * the sale's page then says it was withdrawn, offers a new refund, and the audit log shows who withdrew it and why.
 */
import t from "tap";
import { enrolOperators, startConsole, type ConsoleClient } from "../support/backoffice.ts";
import { useService } from "../support/service.ts";
import { orderId, processSale } from "../support/wire.ts";

const svc = useService(t, () => ({}));

let close: () => Promise<void> = async () => {};
let ops: Map<string, ConsoleClient>;
const as = (login: string) => ops.get(login)!;

t.before(async () => {
  const bo = await startConsole(svc());
  close = () => bo.close();
  ops = await enrolOperators(svc(), bo.url, [
    ["wdh-ann", "payouts"],
    ["wdh-ben", "payouts"],
    ["wdh-ada", "admin"],
  ]);
  await svc().sql("insert into four_eyes_threshold (merchant_id, currency, amount) values ('m-test', 'USD', 500) on conflict do nothing");
});
t.teardown(() => close());

/** An approved sale of 10.50 USD whose refund in full `login` asked for from its page: it waits for a second approval. */
async function waitingRequest(login: string): Promise<number> {
  const sale = await processSale(svc().edgeUrl, { order_id: orderId("wdh"), amount: 1050 });
  if (sale.body.transaction_status !== "approved") throw new Error(`the sale is not approved: ${sale.text}`);
  const traceId = sale.body.trace_id as number;
  const from = `/transactions/${traceId}`;
  const asked = await as(login).post(
    `${from}/refund`,
    { amount: "10.50", reason: "customer asked", request_id: `wdh-request-${traceId}`, step: "confirm" },
    from,
  );
  if (asked.location !== `${from}?notice=refund-first`) throw new Error(`the refund did not wait (${asked.status}): ${asked.body.slice(0, 400)}`);
  return traceId;
}

const refunds = async (traceId: number) => (await svc().sql("select 1 from payment_order where reference_trace_id = $1", [traceId])).length;

t.test("the asker withdraws it; another payouts operator's forged form is refused with 403 and the request still waits", async (t) => {
  const traceId = await waitingRequest("wdh-ann");
  const from = `/transactions/${traceId}`;
  const path = `${from}/refund-request/withdraw`;
  t.match((await as("wdh-ann").get(from)).body, /id="withdraw-review"/, "the asker is offered Withdraw request");
  const bens = (await as("wdh-ben").get(from)).body;
  t.match(bens, /id="refund-approve"/, "another operator is offered the approval");
  t.notMatch(bens, /id="withdraw-review"/, "but not the withdrawal");

  const forged = await as("wdh-ben").post(path, { reason: "not mine to drop", step: "confirm" }, from);
  t.equal(forged.status, 403);
  t.match(forged.body, /Only the operator who asked for this refund, or an admin, may withdraw it\. The request still waits\./);
  t.match((await as("wdh-ann").get(from)).body, /You asked for a refund of 10\.50 USD/, "the request still waits");

  const blank = await as("wdh-ann").post(path, { reason: " ", step: "review" }, from);
  t.equal(blank.status, 400);
  t.match(blank.body, /Reason: say why\./);

  const review = await as("wdh-ann").post(path, { reason: "asked in error", step: "review" }, from);
  t.equal(review.status, 200);
  t.match(review.body, new RegExp(`Withdraw the request of wdh-ann to refund 10\\.50 USD of sale ${traceId}\\?`), "the review names the request");
  t.match(review.body, /Reason: asked in error/);
  t.match((await as("wdh-ann").get(from)).body, /id="refund-waiting"/, "the review changes nothing");
  const done = await as("wdh-ann").post(path, { reason: "asked in error", step: "confirm" }, from);
  t.equal(done.status, 303);
  t.equal(done.location, `${from}?notice=refund-withdrawn`);
  const after = (await as("wdh-ann").get(done.location!)).body;
  t.match(after, /Refund request withdrawn: nothing was refunded\./);
  t.notMatch(after, /id="refund-waiting"/, "no request waits any more");
  t.match(after, /id="refund-amount"/, "a new refund may be asked for");
  t.equal(await refunds(traceId), 0, "no money moved");

  const again = await as("wdh-ann").post(path, { reason: "again", step: "confirm" }, from);
  t.equal(again.status, 409, "nothing waits: nothing to withdraw");
  t.match(again.body, /no refund request of this sale waits for a second approval/);

  const audit = (await as("wdh-ada").get("/audit?action=transaction.refund.first.withdraw")).body;
  t.match(audit, /wdh-ann/, "the audit log shows who withdrew it");
  t.match(audit, /asked in error/, "and why");
  const rows = await svc().sql<{ actor: string; outcome: string }>(
    "select actor, outcome from audit_log where action = 'transaction.refund.first.withdraw' and target = $1 order by id",
    [`trace_id:${traceId}`],
  );
  t.same(
    rows.map((r) => `${r.actor} ${r.outcome}`),
    ["wdh-ben failure", "wdh-ann success", "wdh-ann failure"],
  );
});

t.test("an admin is offered the withdrawal of another operator's request, and it goes through", async (t) => {
  const traceId = await waitingRequest("wdh-ben");
  const from = `/transactions/${traceId}`;
  const page = (await as("wdh-ada").get(from)).body;
  t.match(page, /id="refund-approve"/);
  t.match(page, /id="withdraw-review"/);
  const done = await as("wdh-ada").post(`${from}/refund-request/withdraw`, { reason: "duplicate of another refund", step: "confirm" }, from);
  t.equal(done.status, 303);
  t.notMatch((await as("wdh-ben").get(from)).body, /id="refund-waiting"/);
});
