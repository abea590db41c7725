/**
 * The Virtual Terminal in Debian's Chromium, by keyboard only, against the running service, the acquirer simulator
 * and a loopback platform: a payouts operator opens it from the merchant page, types the sale and the customer with
 * Tab between fields, reads the confirmation with the amount and its currency, types the card there and charges it
 * with Enter; the result says approved (sim-a's 3-D Secure card, no challenge on a MOTO sale) and links the
 * transaction. Every page axe-clean; no field offers to keep a card (autocomplete off, no cc-* token); the form fits
 * 375 px. Screenshots kept.
 */
import t, { type Test } from "tap";
import type { Browser, Page } from "playwright-core";
import type { BackofficeHandle } from "../../edge/backoffice/server.ts";
import { type ConsoleClient, consolePage, enrolOperators, startConsole } from "../support/backoffice.ts";
import { axeCleanShot, launchBrowser, tabTo } from "../support/browser.ts";
import { usePlatformService } from "../support/platform-service.ts";

const { svc, stub } = usePlatformService(t);

let browser: Browser;
let bo: BackofficeHandle;
let clients: Map<string, ConsoleClient>;

t.before(async () => {
  bo = await startConsole(svc());
  browser = await launchBrowser();
  clients = await enrolOperators(svc(), bo.url, [["ann", "payouts"]]);
});
t.teardown(async () => {
  await browser?.close();
  await bo?.close();
});

const pageAs = (t: Test, width = 1360): Promise<Page> => consolePage(t, browser, bo.url, clients.get("ann")!, { width, locale: "en-GB", timeout: 20_000 });

const axeClean = (t: Test, page: Page, name: string) => axeCleanShot(t, page, name, `backoffice-${name}`);

/** Tab to the field, then type. */
async function typeInto(t: Test, page: Page, selector: string, text: string): Promise<void> {
  t.ok(await tabTo(page, selector, 12), `${selector} is reached with Tab`);
  await page.keyboard.type(text);
}

/** No field of the page may let the browser keep what is typed in it. */
async function keepsNothing(t: Test, page: Page): Promise<void> {
  const fields = await page.$$eval("form input:not([type=hidden]), form select, form textarea", (els) =>
    els.map((e) => ({ id: e.id, autocomplete: e.getAttribute("autocomplete") ?? e.closest("form")?.getAttribute("autocomplete") ?? "" })),
  );
  for (const f of fields.filter((f) => f.id.startsWith("vt-"))) t.equal(f.autocomplete, "off", `${f.id}: autocomplete off`);
  t.notMatch(await page.content(), /cc-(number|exp|csc|name)/, "no cc-* token");
}

t.test("a MOTO sale by keyboard: the sale, the confirmation with the card, the result with its link", async (t) => {
  const page = await pageAs(t);
  await page.goto(`${bo.url}/merchants/m-plat`);
  t.ok(await tabTo(page, "#virtual-terminal-link"), "the merchant page's link is reached with Tab");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#vt-sale");
  await keepsNothing(t, page);
  await axeClean(t, page, "moto-form");
  t.equal(await page.inputValue("#vt-currency"), "USD", "the frontend's base currency first");
  await typeInto(t, page, "#vt-amount", "42.50");
  await typeInto(t, page, "#vt-pin", "cust-phone-7");
  await typeInto(t, page, "#vt-email", "caller@example.com");
  await typeInto(t, page, "#vt-first-name", "Mia");
  await typeInto(t, page, "#vt-last-name", "Phone");
  await typeInto(t, page, "#vt-country", "DE");
  await typeInto(t, page, "#vt-reason", "order taken by phone, call 5521");
  t.ok(await tabTo(page, "#vt-next", 5), "then the button");
  await page.keyboard.press("Enter");

  await page.waitForSelector("#vt-card");
  t.match(await page.textContent("#vt-charge-summary"), /You are about to charge 42\.50 USD to the customer's card, for merchant m-plat/);
  await keepsNothing(t, page);
  await axeClean(t, page, "moto-confirm");
  await typeInto(t, page, "#vt-card-number", "4000 0000 0000 3220");
  await typeInto(t, page, "#vt-card-expiry", "12/30");
  await typeInto(t, page, "#vt-card-cvv", "123");
  t.ok(await tabTo(page, "#vt-charge", 5), "then the charge button");
  t.match(await page.textContent("#vt-charge"), /Charge 42\.50 USD/, "the button names the amount");
  await page.keyboard.press("Enter");

  await page.waitForSelector("#vt-result");
  t.match(await page.textContent("#vt-result"), /Payment of 42\.50 USD approved: transaction \d+/);
  await axeClean(t, page, "moto-result");
  const trace = Number(/transaction (\d+)/.exec((await page.textContent("#vt-result")) ?? "")?.[1]);
  t.ok(await tabTo(page, "#vt-transaction"), "the transaction's link is reached with Tab");
  await page.keyboard.press("Enter");
  await page.waitForURL(`${bo.url}/transactions/${trace}`);
  t.match(await page.textContent("main"), /backoffice:ann/, "the transaction's page names the operator who made it");
  const [validation] = await stub().waitFor("validation", (c) => (c.body as Record<string, unknown>).trace_id === trace, { timeoutMs: 120_000 });
  t.equal((validation.body as Record<string, unknown>).created_by, "backoffice:ann");
});

t.test("a card mistyped is named at its field, and the form fits 375 px", async (t) => {
  const page = await pageAs(t, 375);
  await page.goto(`${bo.url}/merchants/m-plat/virtual-terminal`);
  const width = await page.evaluate("document.documentElement.scrollWidth");
  t.ok(Number(width) <= 375, `nothing wider than 375 px (${width})`);
  await page.fill("#vt-amount", "5.00");
  for (const [id, v] of [
    ["#vt-pin", "cust-phone-8"],
    ["#vt-email", "c8@example.com"],
    ["#vt-first-name", "Ole"],
    ["#vt-last-name", "Phone"],
    ["#vt-country", "NO"],
    ["#vt-reason", "call 5522"],
  ])
    await page.fill(id, v);
  await page.click("#vt-next");
  await page.waitForSelector("#vt-card");
  await page.fill("#vt-card-number", "4111 1111 1111 1112");
  await page.fill("#vt-card-expiry", "12/30");
  await page.fill("#vt-card-cvv", "123");
  await page.click("#vt-charge");
  await page.waitForSelector("#vt-card-number-error");
  t.match(await page.textContent("#vt-card-number-error"), /Card number/);
  t.equal(await page.inputValue("#vt-card-number"), "", "the card is not drawn back");
  await axeClean(t, page, "moto-card-error");
});
