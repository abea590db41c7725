/**
 * The customer page in Debian's Chromium against the running service: from a
 * sale's detail, the PIN links to its customer's page (totals with the amount
 * in the page's language, the card with the closed loop's answer, the
 * transaction linking back); a support operator adds a note and blocks the
 * customer by keyboard, the next sale is declined, and its detail names the
 * block and its reason; a payouts operator lifts it. A viewer sees no form,
 * and a viewer's forged block form is refused by the engine. Axe clean at
 * desktop width and at 375 px, where the page does not scroll sideways.
 */
import t, { type Test } from "tap";
import type { Browser, Page } from "playwright-core";
import type { BackofficeHandle } from "../../edge/backoffice/server.ts";
import { type ConsoleClient, consolePage, enrolOperators, startConsole } from "../support/backoffice.ts";
import { axeCleanShot, keyboardWalk, launchBrowser } from "../support/browser.ts";
import { movableClock } from "../support/clock.ts";
import { useService } from "../support/service.ts";
import { orderId, processSale } from "../support/wire.ts";

const clock = movableClock();
const svc = useService(t, () => ({}), { now: clock.now });
const PIN = `cust-page-${process.pid}`;

let browser: Browser;
let bo: BackofficeHandle;
let clients: Map<string, ConsoleClient>;
let firstSale = 0;

t.before(async () => {
  const sale = await processSale(svc().edgeUrl, { pin: PIN, order_id: orderId("bcust"), amount: 123456 });
  if (sale.body.transaction_status !== "approved") throw new Error(`unexpected sale: ${sale.text}`);
  firstSale = sale.body.trace_id;
  bo = await startConsole(svc());
  browser = await launchBrowser();
  clients = await enrolOperators(
    svc(),
    bo.url,
    [
      ["cus-sue", "support"],
      ["cus-vic", "viewer"],
      ["cus-pat", "payouts"],
    ],
    clock.now,
  );
});
t.teardown(async () => {
  await browser?.close();
  await bo?.close();
});

const pageAs = (t: Test, login: string, width = 1360): Promise<Page> => consolePage(t, browser, bo.url, clients.get(login)!, { width, timeout: 20_000 });

const axeClean = (t: Test, page: Page, name: string) => axeCleanShot(t, page, name, `backoffice-${name}`);

const customerUrl = () => `${bo.url}/customer?merchant_id=m-test&pin=${encodeURIComponent(PIN)}`;

t.test("the PIN on a detail leads to the customer page: totals, the card, the transaction", async (t) => {
  const page = await pageAs(t, "cus-vic");
  await page.goto(`${bo.url}/transactions/${firstSale}`);
  await page.click(`a[href*="pin=${encodeURIComponent(PIN)}"]`);
  await page.waitForURL(/\/customer\?/);
  t.equal(await page.textContent("h1"), `Customer ${PIN} at m-test`);
  const totals = (await page.locator("#customer-totals tbody tr").first().locator("td").allTextContents()).map((c) => c.trim());
  t.same(totals.slice(0, 4), ["deposit", "approved", "USD", "1"], "one approved sale (a deposit) in USD");
  t.equal(totals[4], "1234.56 USD", "its amount from the integer minor units");
  const card = (await page.locator("#customer-cards tbody tr").first().locator("td").allTextContents()).map((c) => c.trim());
  t.same([card[0], card[4]], ["411111******1111", "yes"], "the masked card, withdrawals allowed by its approved deposit");
  t.equal(await page.locator(`#customer-transactions a[href="/transactions/${firstSale}"]`).count(), 1, "the sale links to its detail");
  t.equal(await page.locator("#block-form, #note-form").count(), 0, "a viewer has no form");
  await axeClean(t, page, "customer-viewer");
  const forged = await clients.get("cus-vic")!.post("/customer/blocks", { merchant_id: "m-test", pin: PIN, kind: "customer", reason: "forged" }, "/customer");
  t.equal(forged.status, 403, "a viewer's forged block form is refused by the engine");
});

t.test("support notes and blocks by keyboard; the next sale's detail names the block; payouts lifts it", async (t) => {
  const page = await pageAs(t, "cus-sue");
  await page.goto(customerUrl());
  const stops = await keyboardWalk(page, 120);
  for (const id of ["textarea#note-text", "button#note-submit", "input#block-reason", "button#block-submit"])
    t.ok(
      stops.some((s) => s.element === id && s.visible),
      `${id} is reached by Tab, its focus drawn`,
    );

  await page.focus("#note-text");
  await page.keyboard.type("Asked for proof of address.");
  await page.focus("#note-submit");
  await page.keyboard.press("Enter");
  await page.waitForURL(/notice=noted/);
  t.equal(await page.textContent("#notice"), "The note is kept.");
  t.match(await page.textContent("#customer-notes"), /Asked for proof of address\.\s*backoffice:cus-sue/);

  // A card number in the reason: the page again, the field named, nothing kept.
  await page.fill("#block-reason", "paid with 4111 1111 1111 1111");
  await page.press("#block-reason", "Enter");
  await page.waitForLoadState();
  t.match(await page.textContent("#notice"), /reason: must not hold a card number/);
  t.equal(await page.locator("#customer-blocks tbody tr[id^=block-]").count(), 0);

  await page.check("#block-kind-customer");
  await page.fill("#block-reason", "Self-excluded by phone");
  await page.focus("#block-submit");
  await page.keyboard.press("Enter");
  await page.waitForURL(/notice=blocked/);
  const held = page.locator("#customer-blocks tbody tr[id^=block-]");
  t.equal(await held.count(), 1);
  t.match(await held.textContent(), /Self-excluded by phone/);
  await axeClean(t, page, "customer-blocked");

  const refused = await processSale(svc().edgeUrl, { pin: PIN, order_id: orderId("bcust-blocked") });
  t.same([refused.body.transaction_status, refused.body.error_code], ["declined", 9008]);
  await page.goto(`${bo.url}/transactions/${refused.body.trace_id}`);
  t.match(await page.textContent("#notice"), /Refused by block \d+ \(cust-page-\d+\): Self-excluded by phone/, "the detail names the block and its reason");
  await axeClean(t, page, "detail-refused-by-block");

  // Support may not lift: no lift form for it. Payouts lifts.
  await page.goto(customerUrl());
  t.equal(await page.locator("button[id^=lift-]").count(), 0, "support has no lift button");
  const payouts = await pageAs(t, "cus-pat");
  await payouts.goto(customerUrl());
  const lift = payouts.locator("button[id^=lift-]");
  const id = ((await lift.getAttribute("id")) ?? "").replace("lift-", "");
  await payouts.fill(`#lift-reason-${id}`, "Customer asked to reopen after the cool-off");
  await lift.focus();
  await payouts.keyboard.press("Enter");
  await payouts.waitForURL(/notice=lifted/);
  t.match(await payouts.textContent("#customer-blocks"), /lifted by backoffice:cus-pat: Customer asked to reopen/);
  const through = await processSale(svc().edgeUrl, { pin: PIN, order_id: orderId("bcust-lifted") });
  t.equal(through.body.transaction_status, "approved", "lifted: the next sale goes through");
});

t.test("at 375 px the page reads without sideways scrolling and stays axe clean", async (t) => {
  const page = await pageAs(t, "cus-sue", 375);
  await page.goto(customerUrl());
  const wide = (await page.evaluate("document.documentElement.scrollWidth")) as number;
  t.ok(wide <= 375, `the page is ${wide} px wide (tables scroll in their own boxes)`);
  await axeClean(t, page, "customer-375");
});
