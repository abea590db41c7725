/**
 * "Check now" in Debian's Chromium against the running service: a sale the
 * acquirer left pending, whose next scheduled look is hours away, is listed
 * on the stuck-work page; a support operator presses its Check now button by
 * keyboard, the page says its processor is being asked, and the transaction
 * shows approved within seconds (the row leaves the page); the same from a
 * transaction's detail page, with a reason that lands in the audit log. A viewer sees no
 * such button; a final transaction offers none, and a forged check of one is
 * refused with its cause. Pages axe-clean; screenshots kept.
 *
 * As in check-transaction-now.test.ts: the acquirer simulator runs in this
 * process on a clock that stands still until the test moves it, and the
 * engine's clock is moved two hours on after the sales.
 */
import t, { type Test } from "tap";
import type { Browser, Page } from "playwright-core";
import type { BackofficeHandle } from "../../edge/backoffice/server.ts";
import { startTestSim, type TestSim } from "../support/acquirer-sim.ts";
import { type ConsoleClient, consolePage, enrolOperators, startConsole } from "../support/backoffice.ts";
import { axeViolations, launchBrowser, screenshot } from "../support/browser.ts";
import { movableClock } from "../support/clock.ts";
import { useService } from "../support/service.ts";
import { until } from "../support/until.ts";
import { orderId, processSale } from "../support/wire.ts";

let simTime = Date.parse("2026-11-25T12:00:00Z");
let sim: TestSim;
t.before(async () => {
  sim = await startTestSim(() => simTime);
});
t.teardown(() => sim.stop());

const clock = movableClock();
const svc = useService(t, () => ({ ...sim.serviceEnv(), CASHIER_WORKER_POLL_MS: "100" }), { now: clock.now });

let browser: Browser;
let bo: BackofficeHandle;
let clients: Map<string, ConsoleClient>;
const trace = { pending: 0, pending2: 0, approved: 0 };

t.before(async () => {
  const approved = await processSale(svc().edgeUrl, { order_id: orderId("bcheck-final") });
  const pending = await processSale(svc().edgeUrl, { order_id: orderId("bcheck-pending"), card_number: "4000000000000077" });
  const pending2 = await processSale(svc().edgeUrl, { order_id: orderId("bcheck-pending"), card_number: "4000000000000077" });
  if (approved.body.transaction_status !== "approved" || pending.body.transaction_status !== "pending" || pending2.body.transaction_status !== "pending") {
    throw new Error(`unexpected sales: ${approved.text} ${pending.text} ${pending2.text}`);
  }
  trace.approved = approved.body.trace_id;
  trace.pending = pending.body.trace_id;
  trace.pending2 = pending2.body.trace_id;
  clock.advance(2 * 3_600_000);
  bo = await startConsole(svc());
  browser = await launchBrowser();
  clients = await enrolOperators(
    svc(),
    bo.url,
    [
      ["sue", "support"],
      ["vic", "viewer"],
    ],
    clock.now,
  );
  // The follow-up has asked once, heard "pending", and planned its next looks more than half an hour away.
  const planned = await until(async () => {
    const rows = await svc().sql<{ late: boolean }>(
      "select next_check_at > now() + interval '30 minutes' as late from transaction where trace_id = any($1::int[])",
      [[trace.pending, trace.pending2]],
    );
    return rows.length === 2 && rows.every((r) => r.late);
  }, 15_000);
  if (!planned) throw new Error("the pending sale's next look was not planned far off");
});
t.teardown(async () => {
  await browser?.close();
  await bo?.close();
});

const pageAs = (t: Test, login: string, locale = "en-GB"): Promise<Page> =>
  consolePage(t, browser, bo.url, clients.get(login)!, { width: 1360, locale, timeout: 15_000 });

async function axeClean(t: Test, page: Page, name: string): Promise<void> {
  t.same(await axeViolations(page), [], `axe: no serious or critical violation on ${name}`);
  t.comment(`screenshot: ${await screenshot(page, `backoffice-${name}`)}`);
}

t.test("a viewer sees the stuck sale but no Check now button", async (t) => {
  const page = await pageAs(t, "vic");
  await page.goto(`${bo.url}/stuck`);
  t.equal(await page.locator(`#stuck-transactions a[href="/transactions/${trace.pending}"]`).count(), 1, "the sale is listed");
  // Its age is the engine's (whose clock was moved two hours), not the console's own clock.
  const row = page.locator("#stuck-transactions tr", { has: page.locator(`a[href="/transactions/${trace.pending}"]`) });
  const cells = (await row.locator("td").allTextContents()).map((c) => c.trim());
  t.ok(
    cells.some((c) => /^2 h \d+ min$/.test(c)),
    `the sale has waited two hours by the engine's clock (cells: ${cells.join(" | ")})`,
  );
  t.equal(await page.locator("button[id^=check-]").count(), 0);
  await page.goto(`${bo.url}/transactions/${trace.pending}`);
  t.equal(await page.locator("#check-now").count(), 0);
});

t.test("support presses Check now on the stuck page by keyboard; the sale turns approved within seconds", async (t) => {
  const page = await pageAs(t, "sue");
  await page.goto(`${bo.url}/transactions/${trace.pending}`);
  t.equal(await page.locator("#check-now").count(), 1, "the open sale's detail offers the check");
  t.equal(await page.locator("label[for=check-reason]").textContent(), "Reason (optional)");
  await axeClean(t, page, "detail-check");
  await page.goto(`${bo.url}/stuck`);
  const button = page.locator(`#check-${trace.pending}`);
  t.equal(await button.count(), 1, "the row has its button");
  t.equal(await button.getAttribute("aria-label"), `Check now: transaction ${trace.pending}`);
  await axeClean(t, page, "stuck-check");
  const arabic = await pageAs(t, "sue", "ar");
  await arabic.goto(`${bo.url}/stuck`);
  t.equal(await arabic.getAttribute("html", "dir"), "rtl");
  t.equal(await arabic.textContent(`#check-${trace.pending}`), "تحقّق الآن", "the button in Arabic");
  await axeClean(t, arabic, "stuck-check-ar");
  // The acquirer now has its answer; the engine would not ask for hours.
  simTime += 10_000;
  await button.focus();
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/stuck\?notice=checked/);
  t.match(await page.textContent("#notice"), new RegExp(`Transaction ${trace.pending}: its follow-up runs now`));
  await axeClean(t, page, "stuck-checked");
  const gone = await until(async () => {
    await page.goto(`${bo.url}/stuck`);
    return (await page.locator(`#stuck-transactions a[href="/transactions/${trace.pending}"]`).count()) === 0;
  }, 15_000);
  t.ok(gone, "the sale has left the stuck list");
  await page.goto(`${bo.url}/transactions/${trace.pending}`);
  t.match(await page.textContent("#status"), /approved/);
  t.equal(await page.locator("#check-now").count(), 0, "a final transaction offers no check");
  await axeClean(t, page, "checked-detail");
  const audit = await svc().sql<{ actor: string }>("select actor from audit_log where action = 'transaction.check' and outcome = 'success' and target = $1", [
    `trace_id:${trace.pending}`,
  ]);
  t.same(
    audit.map((r) => r.actor),
    ["sue"],
    "the check is in the audit log under the operator",
  );
});

t.test("support checks from the transaction's detail with a reason; the page turns approved", async (t) => {
  const page = await pageAs(t, "sue");
  await page.goto(`${bo.url}/transactions/${trace.pending2}`);
  t.match(await page.textContent("#status"), /pending/);
  await page.fill("#check-reason", "customer called about the deposit");
  await page.press("#check-reason", "Enter");
  await page.waitForURL(`${bo.url}/transactions/${trace.pending2}?notice=checked`);
  // The worker may have its answer before this page is drawn: the notice says which.
  t.match(await page.textContent("#notice"), /its follow-up (runs now|has run)/);
  const approved = await until(async () => {
    await page.reload();
    return /approved/.test((await page.textContent("#status")) ?? "");
  }, 15_000);
  t.ok(approved, "the reloaded page shows it approved");
  t.match(await page.textContent("#notice"), /its follow-up has run/, "and the notice no longer asks for a reload");
  t.equal(await page.locator("#check-now").count(), 0);
  await axeClean(t, page, "detail-checked");
  const rows = await svc().sql<{ actor: string; detail: string }>(
    "select actor, detail from audit_log where action = 'transaction.check' and outcome = 'success' and target = $1",
    [`trace_id:${trace.pending2}`],
  );
  t.same(rows, [{ actor: "sue", detail: "customer called about the deposit" }], "the reason is in the audit log");
});

t.test("a forged check of a final transaction is the detail page with the cause", async (t) => {
  const r = await clients.get("sue")!.post(`/transactions/${trace.approved}/check`, { from: "stuck", reason: "forged" }, `/transactions/${trace.approved}`);
  t.equal(r.status, 409);
  t.match(r.body, new RegExp(`Transaction ${trace.approved} was not checked: transaction ${trace.approved} is approved, a final status`));
  const viewer = await clients.get("vic")!.post(`/transactions/${trace.approved}/check`, {}, `/transactions/${trace.approved}`);
  t.equal(viewer.status, 403, "a viewer's forged form is refused by the engine");
});
