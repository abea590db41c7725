/**
 * The hosted Cashier in Chromium for a player who deposits again and again
 * (issue 33, points 2 and 3): the platform's own words when its Validation
 * refuses (deposits and withdrawals, escaped, never with a card number), a
 * declined withdrawal's next step, "Deposit again" on the receipt (a new
 * order), the amount kept on "Try another card", the button naming the
 * amount (and following it as typed, by the page's language), the card number
 * grouped as typed with the caret kept, Cancel and Remove asking first (with
 * scripts and without), every mistake of a form in one round, German amounts;
 * axe on each new state, at 375 px.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import t, { type Test } from "tap";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { axeViolations, launchBrowser, screenshot } from "../support/browser.ts";
import { cashierMerchants, SECRET, sessionBody, startSession } from "../support/cashier.ts";
import { startPlatformStub, type PlatformStub } from "../support/platform-stub.ts";
import { useService } from "../support/service.ts";
import { orderId, processSale } from "../support/wire.ts";

let browser: Browser;
let stub: PlatformStub;
let parent: string;
const servers: Server[] = [];

t.before(async () => {
  browser = await launchBrowser();
  stub = await startPlatformStub({ secrets: { "m-cash": SECRET, "m-cash-manual": SECRET } });
  const shop = createServer((_req, res) => res.end("shop"));
  servers.push(shop);
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  parent = `http://localhost:${(shop.address() as AddressInfo).port}`;
});
const service = useService(t, { CASHIER_CALLBACK_ALLOW_PRIVATE: "1", CASHIER_WORKER_POLL_MS: "100" }, () => ({
  merchants: cashierMerchants(stub.url, parent),
}));
t.teardown(async () => {
  await browser?.close();
  await stub?.close();
  for (const s of servers) s.close();
});

const APPROVED = "4111111111111111";

async function freshPage(t: Test, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 375, height: 800 }, ...options });
  context.setDefaultTimeout(20_000);
  t.teardown(() => context.close());
  return context.newPage();
}

async function open(t: Test, over: Record<string, unknown> = {}): Promise<string> {
  const reply = await startSession(service().edgeUrl, sessionBody({ return_url: `${stub.url}/return`, ...over }));
  t.equal(reply.http, 200, "the session starts", { reply: reply.body });
  return reply.body.redirect_url as string;
}

async function fillCard(page: Page, number = APPROVED, expiry = "12/30"): Promise<void> {
  if (await page.locator("#card-new").count()) await page.check("#card-new");
  await page.fill("#card_number", number);
  await page.fill("#card_exp", expiry);
  if (await page.locator("#cvv").count()) await page.fill("#cvv", "123");
  await page.fill("#holder", "Jane Doe");
}

/** axe on the page as this browser got it; a page without scripts is looked at in a page that runs them. */
async function axeClean(t: Test, page: Page, what: string, scripts = true): Promise<void> {
  if (scripts) return void t.same(await axeViolations(page), [], `axe: ${what}`);
  const checker = await freshPage(t);
  await checker.setContent(await page.content());
  t.same(await axeViolations(checker), [], `axe: ${what}`);
}

const text = async (page: Page, selector: string) => (await page.textContent(selector))?.trim();

t.test("a deposit the platform refuses shows the platform's words, escaped; words with a card number are not shown", async (t) => {
  const words = "Daily deposit limit reached (responsible gambling). Try again tomorrow. <b>RG-7</b>";
  stub.script("validation", { status: 1, description: words });
  const page = await freshPage(t);
  await page.goto(await open(t));
  await page.fill("#amount", "12.34");
  await fillCard(page);
  await Promise.all([page.waitForURL(/\/result\/\d+/), page.click("#pay")]);
  t.equal(await text(page, "h1"), "Payment declined");
  t.equal(await text(page, "#result-message"), "The merchant did not accept this payment and says:");
  t.equal(await text(page, "#platform-message"), words, "the platform's words as it wrote them");
  t.equal(await page.locator("#platform-message b").count(), 0, "as text, never as HTML");
  await axeClean(t, page, "declined with the platform's words");
  t.comment(`screenshot: ${await screenshot(page, "cashier-declined-platform-words-375")}`);

  // Try another card keeps the amount, and the button names it.
  await Promise.all([page.waitForURL(/\/deposit/), page.click("#try-again")]);
  t.equal(await page.inputValue("#amount"), "12.34", "the amount is kept");
  t.equal(await page.inputValue("#card_number"), "", "the card is not");
  t.equal(await text(page, "#pay"), "Pay 12.34 USD");

  stub.script("validation", { status: 2, description: "Card 4111 1111 1111 1111 is blocked" });
  await fillCard(page);
  await Promise.all([page.waitForURL(/\/result\/\d+/), page.click("#pay")]);
  t.equal(await text(page, "#result-message"), "The merchant did not confirm this payment.", "our own words instead");
  t.equal(await page.locator("#platform-message").count(), 0);
  t.notMatch(await page.content(), /is blocked|4111 1111 1111 1111/, "none of the words that held a card number");
});

t.test("a withdrawal the platform refuses says why and what to do next", async (t) => {
  const withdraw = async (over: Record<string, unknown>) => {
    const page = await freshPage(t);
    const order = orderId("wd");
    await page.goto(await open(t, { intent: "withdrawal", merchant_id: "m-cash-manual", frontend: "manual-open", order_id: order, balance: 20_000, ...over }));
    await page.fill("#amount", "20");
    await fillCard(page, "5555555555554444");
    await Promise.all([page.waitForURL(/\/result\/\d+/), page.click("#withdraw")]);
    return page;
  };
  stub.script("validation", { status: 3, description: "Verify your identity (KYC) before you withdraw: upload a photo ID in your account." });
  const page = await withdraw({});
  t.equal(await text(page, "h1"), "Withdrawal declined");
  t.equal(await text(page, "#result-message"), "The merchant did not accept this withdrawal and says:");
  t.equal(await text(page, "#platform-message"), "Verify your identity (KYC) before you withdraw: upload a photo ID in your account.");
  t.equal(await text(page, "#result-next"), "No money was sent. If you need help, contact the merchant's support.");
  await axeClean(t, page, "withdrawal declined with the platform's words");
  t.comment(`screenshot: ${await screenshot(page, "cashier-withdrawal-declined-platform-375")}`);

  stub.script("validation", { status: 3, description: "" });
  const silent = await withdraw({ locale: "de" });
  t.equal(await text(silent, "h1"), "Auszahlung abgelehnt");
  t.match(await text(silent, "#result-message"), /Kundendienst des Händlers.*Identität/, "no words from the platform: ours, with the next step");
  await axeClean(t, silent, "withdrawal declined without words (de)");
});

t.test("with scripts: the button follows the amount, the card number is grouped as typed, Deposit again makes a new order", async (t) => {
  const page = await freshPage(t);
  await page.goto(await open(t));
  t.equal(await text(page, "#pay"), "Pay", "no amount chosen: just Pay");
  await page.check("#preset-2500");
  t.equal(await text(page, "#pay"), "Pay 25.00 USD");
  await page.fill("#amount", "1,234.5");
  t.equal(await text(page, "#pay"), "Pay 1234.50 USD", "typed, read as English writes it, written as the page writes amounts");
  await page.fill("#amount", "1.234");
  t.equal(await text(page, "#pay"), "Pay", "two readings: no amount named");

  await page.locator("#card_number").pressSequentially("41111111");
  t.equal(await page.inputValue("#card_number"), "4111 1111");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.type("2");
  t.equal(await page.inputValue("#card_number"), "4111 1121 1", "a digit typed inside the number");
  t.equal(await page.$eval("#card_number", (e) => (e as unknown as { selectionStart: number | null }).selectionStart), 8, "the caret stays after it");
  await page.keyboard.press("End");
  await page.keyboard.press("Backspace");
  t.equal(await page.inputValue("#card_number"), "4111 1121", "the last digit deleted, no space left behind");
  for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("Backspace");
  t.equal(await page.inputValue("#card_number"), "4111 121", "Backspace just after a space takes the digit before it");
  t.equal(await page.$eval("#card_number", (e) => (e as unknown as { selectionStart: number | null }).selectionStart), 3);
  await page.fill("#card_number", "");
  await page.locator("#card_number").pressSequentially("378282246310005");
  t.equal(await page.inputValue("#card_number"), "3782 822463 10005", "American Express as it is printed");

  await page.fill("#amount", "25");
  t.equal(await text(page, "#pay"), "Pay 25.00 USD");
  await fillCard(page);
  await page.check("#save_card");
  await Promise.all([page.waitForURL(/\/result\/\d+/), page.click("#pay")]);
  t.equal(await text(page, "h1"), "Payment approved");
  const first = await text(page, "#receipt-order");
  await axeClean(t, page, "approved with Deposit again");
  t.comment(`screenshot: ${await screenshot(page, "cashier-approved-deposit-again-375")}`);

  await Promise.all([page.waitForURL(/\/deposit/), page.click("#deposit-again")]);
  t.equal(await page.inputValue("#amount"), "", "a fresh form");
  t.equal(await text(page, "#pay"), "Pay");
  await page.check("#preset-1000");
  await page.fill("#saved_card_cvv", "123");
  await Promise.all([page.waitForURL(/\/result\/\d+/), page.click("#pay")]);
  t.equal(await text(page, "h1"), "Payment approved");
  t.not(await text(page, "#receipt-order"), first, "a new order");
  t.equal(await text(page, "#receipt-amount"), "10.00 USD");

  // Remove asks first.
  await Promise.all([page.waitForURL(/\/deposit/), page.click("#deposit-again")]);
  await Promise.all([page.waitForURL(/\/cards\/delete/), page.click("#remove-0")]);
  t.equal(await text(page, "h1"), "Remove this card?");
  await axeClean(t, page, "remove a card: the question");
  await Promise.all([page.waitForURL(/\/deposit/), page.click("#confirm-no")]);
  t.equal(await page.locator("#remove-0").count(), 1, "kept when the customer says no");
});

t.test("without scripts: the button names a known amount, German amounts, Remove and Cancel ask on a page of their own", async (t) => {
  const page = await freshPage(t, { javaScriptEnabled: false });
  await page.goto(await open(t, { locale: "de", amount: 2500 }));
  t.equal(await text(page, "#pay"), "25,00 USD bezahlen", "a fixed amount is named");

  const pin = `rep-${process.pid}-${Date.now()}`;
  await page.goto(await open(t, { locale: "de", pin }));
  t.equal(await text(page, "#pay"), "Bezahlen");
  await page.fill("#amount", "1.234,5");
  await fillCard(page);
  await page.check("#save_card");
  await Promise.all([page.waitForURL(/\/result\/\d+/), page.click("#pay")]);
  t.equal(await text(page, "h1"), "Zahlung genehmigt");
  t.equal(await text(page, "#receipt-amount"), "1234,50 USD", "1.234,5 is 1234.50");

  await Promise.all([page.waitForURL(/\/deposit/), page.click("#deposit-again")]);
  t.equal(await text(page, "#pay"), "Bezahlen");
  await Promise.all([page.waitForURL(/\/cards\/delete/), page.click("#remove-0")]);
  t.equal(await text(page, "h1"), "Diese Karte entfernen?");
  t.match(await text(page, "#confirm-body"), /1111/, "names the card");
  await axeClean(t, page, "remove a card without scripts (de)", false);
  await Promise.all([page.waitForURL(/\/deposit/), page.click("#confirm-no")]);
  t.equal(await page.locator("#remove-0").count(), 1, "nothing removed on no");
  await Promise.all([page.waitForURL(/\/cards\/delete/), page.click("#remove-0")]);
  await Promise.all([page.waitForURL(/\/deposit/), page.click("#confirm-yes")]);
  t.equal(await page.locator("#remove-0").count(), 0, "removed on yes");

  // A pending withdrawal's Cancel: the customer deposited from the card first (the closed loop), then asks for a payout.
  const wpin = `repw-${process.pid}-${Date.now()}`;
  const sale = await processSale(service().edgeUrl, { merchant_id: "m-cash-manual", frontend: "manual-usd", pin: wpin, amount: 10_000 });
  t.equal(sale.body.transaction_status, "approved", { sale: sale.text });
  await page.goto(
    await open(t, {
      intent: "withdrawal",
      merchant_id: "m-cash-manual",
      frontend: "manual-usd",
      pin: wpin,
      order_id: orderId("wd"),
      balance: 20_000,
      locale: "de",
    }),
  );
  await page.fill("#amount", "20");
  await fillCard(page);
  await Promise.all([page.waitForURL(/\/result\/\d+/), page.click("#withdraw")]);
  const traceId = Number(/\/result\/(\d+)/.exec(page.url())![1]);
  await Promise.all([page.waitForURL(/\/withdrawal/), page.click("#back")]);
  await Promise.all([page.waitForURL(/\/cancel/), page.click(`#cancel-${traceId}`)]);
  t.equal(await text(page, "h1"), "Diese Auszahlung stornieren?");
  t.match(await text(page, "#confirm-body"), "20,00 USD");
  await axeClean(t, page, "cancel a withdrawal without scripts (de)", false);
  t.comment(`screenshot: ${await screenshot(page, "cashier-withdrawal-cancel-confirm-de-375")}`);
  await Promise.all([page.waitForURL(/\/withdrawal/), page.click("#confirm-no")]);
  t.equal(await page.locator(`#cancel-${traceId}`).count(), 1, "still pending on no");
  t.equal(stub.received("update_payout").filter((c) => (c.body as any)?.Status === "C").length, 0, "no cancel reached the platform");
  await Promise.all([page.waitForURL(/\/cancel/), page.click(`#cancel-${traceId}`)]);
  await Promise.all([page.waitForURL(/\/withdrawal/), page.click("#confirm-yes")]);
  t.equal(await text(page, "#cancelled"), "Ihre Auszahlung ist storniert.");
  await stub.waitFor("update_payout", (c) => (c.body as any)?.Status === "C" && (c.body as any)?.UpdatedBy === "customer");
});

t.test("every mistake of a form in one round: the shape, the amount's limits or its two readings, and a past expiry", async (t) => {
  for (const javaScriptEnabled of [true, false]) {
    const page = await freshPage(t, { javaScriptEnabled });
    await page.goto(await open(t));
    await page.fill("#amount", "1");
    await fillCard(page, APPROVED, "01/20");
    await page.fill("#cvv", "1");
    await Promise.all([page.waitForURL(/\/deposit/), page.click("#pay")]);
    await page.waitForSelector("#error-summary");
    const summary = await text(page, "#error-summary");
    t.match(summary, "5.00 USD", "the amount's limits");
    t.match(summary, "MM/YY, not in the past", "the past expiry");
    t.match(summary, "security code", "and the shape mistake, together");
    for (const id of ["amount", "card_exp", "cvv"]) t.equal(await page.getAttribute(`#${id}`, "aria-invalid"), "true", `${id} is marked`);

    await page.goto(await open(t, { locale: "de" }));
    await page.fill("#amount", "1,234");
    await fillCard(page);
    await Promise.all([page.waitForURL(/\/deposit/), page.click("#pay")]);
    await page.waitForSelector("#amount-error");
    t.equal(
      await text(page, "#amount-error"),
      "Dieser Betrag lässt sich auf zwei Arten lesen. Schreiben Sie ihn ohne Tausendertrennzeichen, mit „,“ vor den Nachkommastellen, etwa 1234,50",
      "an amount with two readings is refused naming the field, saying how to write it",
    );
    t.equal(await page.inputValue("#amount"), "1,234", "what was typed stays to be mended");
    await axeClean(t, page, `ambiguous amount (de, scripts ${javaScriptEnabled})`, javaScriptEnabled);
  }
});
