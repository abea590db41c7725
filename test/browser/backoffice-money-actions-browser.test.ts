/**
 * The Backoffice's money actions in Debian's Chromium, by keyboard only, against the running service and a loopback
 * platform: a payouts operator refunds part of an approved sale from its detail page (the form reached with Tab, the
 * confirmation page saying the amount and its currency, confirmed with Enter, the refund listed and the platform
 * notified), withdraws the refund request it made above the merchant's four-eyes amount (reason, confirmation, the
 * page saying it was withdrawn), holds a waiting payout from its page (it moves under *On hold*) and releases it, and
 * reviews a bulk rejection from the queue. Every page axe-clean; screenshots kept.
 */
import t, { type Test } from "tap";
import type { Browser, Page } from "playwright-core";
import type { BackofficeHandle } from "../../edge/backoffice/server.ts";
import { type ConsoleClient, consolePage, enrolOperators, startConsole } from "../support/backoffice.ts";
import { axeCleanShot, launchBrowser, tabTo } from "../support/browser.ts";
import { usePlatformService } from "../support/platform-service.ts";
import { orderId, processSale } from "../support/wire.ts";

const { svc, stub } = usePlatformService(t);

let browser: Browser;
let bo: BackofficeHandle;
let clients: Map<string, ConsoleClient>;
let saleId = 0;
let saleOrder = "";
let payoutIds: number[] = [];

t.before(async () => {
  saleOrder = orderId("bmoney-sale");
  const sale = await processSale(svc().edgeUrl, {
    merchant_id: "m-plat-manual",
    frontend: "manual-usd",
    order_id: saleOrder,
    amount: 2500,
    notification_url: `${stub().url}/notify`,
  });
  if (sale.body.transaction_status !== "approved") throw new Error(`unexpected sale: ${sale.text}`);
  saleId = sale.body.trace_id;
  payoutIds = [];
  for (const amount of [1500, 1600]) {
    const p = await processSale(svc().edgeUrl, {
      merchant_id: "m-plat-manual",
      frontend: "manual-usd",
      order_id: orderId("bmoney-po"),
      transaction_type: "payout",
      cvv: undefined,
      amount,
    });
    if (p.body.transaction_status !== "requested") throw new Error(`unexpected payout: ${p.text}`);
    payoutIds.push(p.body.trace_id);
  }
  bo = await startConsole(svc());
  browser = await launchBrowser();
  clients = await enrolOperators(svc(), bo.url, [["ann", "payouts"]]);
});
t.teardown(async () => {
  await browser?.close();
  await bo?.close();
});

const pageAs = (t: Test): Promise<Page> => consolePage(t, browser, bo.url, clients.get("ann")!, { width: 1360, locale: "en-GB", timeout: 20_000 });

const axeClean = (t: Test, page: Page, name: string) => axeCleanShot(t, page, name, `backoffice-${name}`);

t.test("a partial refund by keyboard: the form, the confirmation with amount and currency, the refund made", async (t) => {
  const page = await pageAs(t);
  await page.goto(`${bo.url}/transactions/${saleId}`);
  t.match(await page.locator("#money-title").textContent(), /Money actions/);
  t.equal(await page.inputValue("#refund-amount"), "25.00", "prefilled with what remains");
  await axeClean(t, page, "money-detail");
  t.ok(await tabTo(page, "#refund-amount"), "the amount is reached with Tab");
  await page.keyboard.press("Control+A");
  await page.keyboard.type("10.00");
  await page.keyboard.press("Tab");
  await page.keyboard.type("customer returned one item");
  t.ok(await tabTo(page, "#refund-review", 5), "then the review button");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#confirm-what");
  t.match(await page.textContent("#confirm-what"), new RegExp(`Refund 10\\.00 USD of sale ${saleId} to card 411111\\*+1111\\?`), "the amount and its currency");
  t.match(await page.textContent("#confirm-reason"), /customer returned one item/);
  await axeClean(t, page, "money-refund-confirm");
  t.ok(await tabTo(page, "#refund-confirm"), "the confirm button is reached with Tab");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#notice");
  t.match(await page.textContent("#notice"), /Refund \d+ made/);
  t.match(await page.textContent("#related"), /10\.00 USD/, "the refund is listed with the sale");
  t.equal(await page.inputValue("#refund-amount"), "15.00", "what remains is offered next");
  await axeClean(t, page, "money-refunded");
  const [note] = await stub().waitFor("notification", (c) => (c.body as Record<string, unknown>).transaction_type === "refund", { timeoutMs: 120_000 });
  t.equal((note.body as Record<string, unknown>).transaction_status, "approved", "the platform is notified of the refund");
});

t.test("a refund request waiting for its second approval, withdrawn by keyboard by the operator who asked", async (t) => {
  await svc().sql("insert into four_eyes_threshold (merchant_id, currency, amount) values ('m-plat-manual', 'USD', 500) on conflict do nothing");
  t.teardown(() => svc().sql("delete from four_eyes_threshold where merchant_id = 'm-plat-manual'"));
  const from = `/transactions/${saleId}`;
  const asked = await clients
    .get("ann")!
    .post(`${from}/refund`, { amount: "15.00", reason: "chargeback threat", request_id: "bmoney-withdraw-1", step: "confirm" }, from);
  t.match(asked.location ?? "", /notice=refund-first/, "the refund waits for a second approval");
  const page = await pageAs(t);
  await page.goto(`${bo.url}${from}`);
  await axeClean(t, page, "money-withdraw-form");
  t.ok(await tabTo(page, "#withdraw-reason"), "the withdrawal's reason is reached with Tab");
  await page.keyboard.type("asked in error");
  t.ok(await tabTo(page, "#withdraw-review", 5), "then Withdraw request");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#withdraw-confirm");
  t.match(await page.textContent("#confirm-what"), new RegExp(`Withdraw the request of ann to refund 15\\.00 USD of sale ${saleId}\\?`));
  await axeClean(t, page, "money-withdraw-confirm");
  t.ok(await tabTo(page, "#withdraw-confirm"), "the confirm button is reached with Tab");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#notice");
  t.match(await page.textContent("#notice"), /Refund request withdrawn/);
  t.equal(await page.locator("#refund-waiting").count(), 0, "no request waits");
  t.equal(await page.inputValue("#refund-amount"), "15.00", "a new refund is offered");
});

t.test("a payout held by keyboard moves under On hold, and is released to the queue", async (t) => {
  const [id] = payoutIds;
  const page = await pageAs(t);
  await page.goto(`${bo.url}/payouts/${id}`);
  t.ok(await tabTo(page, "#hold-reason"), "the hold's reason is reached with Tab");
  await page.keyboard.type("waiting for proof of address");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#notice");
  t.match(await page.textContent("#notice"), new RegExp(`Payout ${id} is on hold`));
  t.equal(await page.locator(`#select-${id}`).count(), 0, "no longer in the queue");
  t.match(await page.textContent("#held"), /Held by ann: waiting for proof of address/);
  await axeClean(t, page, "money-payouts-held");
  await page.goto(`${bo.url}/payouts/${id}`);
  t.match(await page.textContent("#held-by"), /Held by ann/);
  t.ok(await tabTo(page, "#release-reason"), "the release's reason is reached with Tab");
  await page.keyboard.type("proof received");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#notice");
  t.equal(await page.locator(`#select-${id}`).count(), 1, "back in the queue");
});

t.test("a bulk rejection reviewed by keyboard: each payout with its amount and currency, then decided", async (t) => {
  const [, id] = payoutIds;
  const page = await pageAs(t);
  await page.goto(`${bo.url}/payouts`);
  t.ok(await tabTo(page, `#select-${id}`), "the payout's box is reached with Tab");
  await page.keyboard.press("Space");
  t.ok(await tabTo(page, "#bulk-refusal-reason"), "then the rejection's reason");
  // A select takes its option from the letters typed, as a keyboard user picks one.
  await page.keyboard.type("Suspected");
  t.equal(await page.inputValue("#bulk-refusal-reason"), "suspected_fraud");
  t.ok(await tabTo(page, "#bulk-reject", 5), "then Review the rejection");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#bulk-review");
  t.match(await page.textContent("#bulk-review"), /16\.00 USD/);
  t.match(await page.textContent("#confirm-what"), /Reject these payouts, in all 16\.00 USD\?/);
  await axeClean(t, page, "money-bulk-review");
  t.ok(await tabTo(page, "#bulk-confirm"), "the confirm button is reached with Tab");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#bulk-results");
  t.match(await page.textContent("#bulk-results"), /Rejected/);
  const [up] = await stub().waitFor("update_payout", (c) => (c.body as Record<string, unknown>).TraceID === id, { timeoutMs: 120_000 });
  t.equal((up.body as Record<string, unknown>).UpdatedBy, "backoffice:ann");
});
