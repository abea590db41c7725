/**
 * The risk rules page in Debian's Chromium against the running service: an
 * admin reaches /merchants/m-test/risk from the merchant's page, fills a
 * velocity rule by keyboard alone, asks the dry run (its answer drawn above the
 * form, what was typed kept) and saves it; the rule is listed; a field at fault
 * is named beside its input. A viewer sees the list without any form, and a
 * viewer's forged save is refused by the engine. Axe clean at desktop width
 * and at 375 px.
 */
import t, { type Test } from "tap";
import type { Browser, Page } from "playwright-core";
import type { BackofficeHandle } from "../../edge/backoffice/server.ts";
import { type ConsoleClient, consolePage, enrolOperators, startConsole } from "../support/backoffice.ts";
import { axeCleanShot, launchBrowser } from "../support/browser.ts";
import { movableClock } from "../support/clock.ts";
import { useService } from "../support/service.ts";
import { orderId, processSale } from "../support/wire.ts";

const clock = movableClock();
const svc = useService(t, () => ({}), { now: clock.now });
const PIN = `risk-page-${process.pid}`;

let browser: Browser;
let bo: BackofficeHandle;
let clients: Map<string, ConsoleClient>;

t.before(async () => {
  // Three sales of one customer: a rule of one sale an hour would have refused two.
  for (let i = 0; i < 3; i++) {
    const sale = await processSale(svc().edgeUrl, { pin: PIN, order_id: orderId("brisk") });
    if (sale.body.transaction_status !== "approved") throw new Error(`unexpected sale: ${sale.text}`);
  }
  bo = await startConsole(svc());
  browser = await launchBrowser();
  clients = await enrolOperators(
    svc(),
    bo.url,
    [
      ["rsk-ada", "admin"],
      ["rsk-vic", "viewer"],
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

/** Tabs until `selector` has the focus (at most `max` presses); true when it got there. */
async function tabTo(page: Page, selector: string, max = 80): Promise<boolean> {
  for (let i = 0; i < max; i++) {
    if (await page.locator(`${selector}:focus`).count()) return true;
    await page.keyboard.press("Tab");
  }
  return false;
}

t.test("an admin writes a velocity rule by keyboard, sees its dry run, saves it", async (t) => {
  const page = await pageAs(t, "rsk-ada");
  await page.goto(`${bo.url}/merchants/m-test`);
  await page.click("#risk-link");
  await page.waitForURL(/\/merchants\/m-test\/risk$/);
  t.equal(await page.textContent("h1"), "Risk rules of m-test");
  t.match(await page.textContent("#risk-table"), "This merchant has no risk rule.");

  t.ok(await tabTo(page, "#risk-name"), "the name is reached by Tab");
  await page.keyboard.type("One sale an hour");
  t.ok(await tabTo(page, "#risk-transactionType"));
  await page.keyboard.press("ArrowDown"); // sale
  t.ok(await tabTo(page, "#risk-key"));
  await page.keyboard.press("ArrowDown"); // customer
  t.ok(await tabTo(page, "#risk-windowSeconds"));
  await page.keyboard.type("3600");
  t.ok(await tabTo(page, "#risk-maxCount"));
  await page.keyboard.type("1");
  t.ok(await tabTo(page, "#risk-dry-run"), "the dry run button is reached by Tab");
  await Promise.all([page.waitForLoadState("load"), page.keyboard.press("Enter")]);
  await page.waitForSelector("#dry-run-result");
  t.match(await page.textContent("#dry-run-result"), /would have refused 2 of the 3 transactions/, "the engine's count over the stored sales");
  t.equal(await page.inputValue("#risk-name"), "One sale an hour", "what was typed is kept");
  await axeClean(t, page, "risk-dry-run");

  t.ok(await tabTo(page, "#risk-save"));
  await Promise.all([page.waitForURL(/notice=saved/), page.keyboard.press("Enter")]);
  const row = (await page.locator("#risk-table tbody tr").first().locator("td").allTextContents()).map((c) => c.trim());
  t.same(row.slice(1, 4), ["One sale an hour", "Velocity", "sale · customer · 3600 s · ≤ 1"], "the rule is listed");
  t.match(row[4] ?? "", "backoffice:rsk-ada");

  // A field at fault is named beside its input.
  await page.fill("#risk-name", "No window");
  await page.selectOption("#risk-transactionType", "sale");
  await page.selectOption("#risk-key", "card");
  await page.fill("#risk-maxCount", "2");
  await Promise.all([page.waitForLoadState("load"), page.click("#risk-save")]);
  t.match(await page.textContent("#risk-windowSeconds-error"), "whole number of seconds", "the engine's words at the window's input");
  await axeClean(t, page, "risk-error");
});

t.test("a viewer sees the rules without a form; a forged save is refused; 375 px", async (t) => {
  const page = await pageAs(t, "rsk-vic", 375);
  await page.goto(`${bo.url}/merchants/m-test/risk`);
  t.equal(await page.locator("#risk-table tbody tr").count(), 1, "the rule is listed to a viewer");
  t.equal(await page.locator("#risk-form, #risk-table form").count(), 0, "no form for a viewer");
  t.ok(((await page.evaluate("document.documentElement.scrollWidth")) as number) <= 375, "nothing wider than 375 px");
  await axeClean(t, page, "risk-viewer");
  const forged = await clients
    .get("rsk-vic")!
    .post(
      "/merchants/m-test/risk",
      { id: "0", name: "forged", kind: "deposit_limit", period: "day", currency: "USD", max_amount_minor: "1", do: "save" },
      "/merchants/m-test/risk",
    );
  t.equal(forged.status, 403, "a viewer's forged save is refused by the engine");
});
