/**
 * The Backoffice's work views in Debian's Chromium, against the running
 * service with 60 sales made through the Process API (docs/backoffice.md,
 * Work views): the transaction list shows at least 20 rows above the fold at
 * 1920x1080 and 12 at 1366x768, one line each; at 375 px the page does not
 * scroll sideways (the table's box does) and the filters are reachable; j/k
 * move the focus between rows and Enter opens one; the columns and page size
 * an operator keeps are there again after signing out and in; a saved search
 * is listed, applied and deleted; the active filters are chips whose links
 * drop them; the audit log is one line per event; the dashboard's period
 * control. Pages axe-clean; screenshots kept.
 */
import t, { type Test } from "tap";
import type { Browser, Page } from "playwright-core";
import type { BackofficeHandle } from "../../edge/backoffice/server.ts";
import { type ConsoleClient, consolePage, createOperator, type EnrolledOperator, enrolOverHttp, startConsole } from "../support/backoffice.ts";
import { axeCleanShot, launchBrowser } from "../support/browser.ts";
import { useService } from "../support/service.ts";
import { processSale } from "../support/wire.ts";

const svc = useService(t);
let browser: Browser;
let bo: BackofficeHandle;
let ada: EnrolledOperator;
let vic: ConsoleClient;
/** Signs out and in again in its test (which ends the session its client held). */
let sam: EnrolledOperator;

t.before(async () => {
  for (let i = 0; i < 60; i++) await processSale(svc().edgeUrl, { amount: 1000 + i, pin: `cust-${i % 7}` });
  bo = await startConsole(svc());
  browser = await launchBrowser();
  ada = await enrolOverHttp(bo.url, await createOperator(svc(), "ada", "admin"), "ada");
  vic = (await enrolOverHttp(bo.url, await createOperator(svc(), "vic", "viewer"), "vic")).client;
  sam = await enrolOverHttp(bo.url, await createOperator(svc(), "sam", "support"), "sam");
});
t.teardown(async () => {
  await browser?.close();
  await bo?.close();
});

const pageAs = (t: Test, client: ConsoleClient, width: number, height: number): Promise<Page> => consolePage(t, browser, bo.url, client, { width, height });

/** Rows of the list whose bottom is inside the first screen, and the tallest row's height. */
const aboveFold = (page: Page, rows = "#results tbody tr"): Promise<{ rows: number; tallest: number }> =>
  page.evaluate(`(() => {
    const trs = [...document.querySelectorAll(${JSON.stringify(rows)})];
    return { rows: trs.filter((r) => r.getBoundingClientRect().bottom <= innerHeight).length, tallest: Math.max(...trs.map((r) => r.getBoundingClientRect().height)) };
  })()`);

const axeClean = (t: Test, page: Page, name: string) => axeCleanShot(t, page, name, `backoffice-work-${name}`);

for (const [width, height, least] of [
  [1920, 1080, 20],
  [1366, 768, 12],
] as const) {
  t.test(`${width}x${height}: at least ${least} transactions above the fold, one line each`, async (t) => {
    const page = await pageAs(t, ada.client, width, height);
    await page.goto(`${bo.url}/transactions`);
    const fold = await aboveFold(page);
    t.comment(`${width}x${height}: ${fold.rows} rows above the fold, rows ${fold.tallest} px tall`);
    t.ok(fold.rows >= least, `${fold.rows} rows above the fold`);
    t.ok(fold.tallest < 40, `one line per row (${fold.tallest} px)`);
    const date = page.locator("#results tbody tr").first().locator("time");
    t.match(await date.textContent(), /^\d{2}-\d{2} \d{2}:\d{2}$/, "a compact date");
    t.match(await date.getAttribute("title"), /UTC$/, "the full time in its title");
    t.equal(await page.locator("#results tbody tr").first().locator("td.num .amount").count(), 1, "the amount right-aligned");
    t.equal(await page.locator("#more-filters[open]").count(), 0, "the further filters folded");
    await axeClean(t, page, `transactions-${width}`);
  });
}

t.test("375 px: no sideways page scroll (the table's box scrolls); filters reachable", async (t) => {
  const page = await pageAs(t, ada.client, 375, 800);
  await page.goto(`${bo.url}/transactions`);
  const widths = (await page.evaluate("({ page: document.documentElement.scrollWidth, view: innerWidth })")) as { page: number; view: number };
  t.ok(widths.page <= widths.view, `the page is as wide as the screen (${widths.page} <= ${widths.view})`);
  t.ok(await page.locator("#search").isVisible(), "the search button is there");
  await page.click("#more-filters > summary");
  t.ok(await page.locator("#email").isVisible(), "the further filters open");
  await axeClean(t, page, "transactions-375");
});

t.test("keyboard: j and k move between rows, Enter opens one", async (t) => {
  const page = await pageAs(t, ada.client, 1366, 768);
  await page.goto(`${bo.url}/transactions`);
  const links = page.locator("#results tbody tr td:first-child a");
  await links.nth(0).focus();
  await page.keyboard.press("j");
  t.equal(await page.evaluate("document.activeElement.textContent"), await links.nth(1).textContent(), "j: the next row");
  await page.keyboard.press("ArrowDown");
  t.equal(await page.evaluate("document.activeElement.textContent"), await links.nth(2).textContent(), "↓: the next row");
  await page.keyboard.press("k");
  const trace = await links.nth(1).textContent();
  t.equal(await page.evaluate("document.activeElement.textContent"), trace, "k: the previous row");
  await Promise.all([page.waitForURL(`${bo.url}/transactions/${trace}`), page.keyboard.press("Enter")]);
  t.pass("Enter opened the row");
});

t.test("chips: each active filter is a link to the search without it", async (t) => {
  const page = await pageAs(t, ada.client, 1366, 768);
  await page.goto(`${bo.url}/transactions?pin=cust-3&status=approved`);
  const chips = page.locator("#active-filters a.chip");
  t.equal(await chips.count(), 2);
  t.equal(await page.locator("#active-filters a[data-filter=pin]").getAttribute("aria-label"), "Remove the filter Customer (PIN): cust-3");
  await Promise.all([page.waitForURL(`${bo.url}/transactions?status=approved`), page.click("#active-filters a[data-filter=pin]")]);
  t.ok((await page.locator("#results tbody tr").count()) > 9, "the PIN filter is gone");
  await axeClean(t, page, "chips");
});

t.test("columns and page size are kept for the operator, after signing out and in", async (t) => {
  const page = await pageAs(t, sam.client, 1366, 768);
  await page.goto(`${bo.url}/transactions`);
  await page.click("#view-preferences > summary");
  await page.uncheck("#column-card");
  await page.uncheck("#column-made_by");
  await page.selectOption("#page_size", "25");
  await Promise.all([page.waitForURL(/notice=prefs/), page.click("#save-preferences")]);
  t.match(await page.textContent("#notice"), /kept/);
  await page.click("#signout");
  await page.waitForURL(/\/signin/);
  await page.fill("#login", "sam");
  await page.fill("#password", sam.password);
  await page.click("#signin");
  // The enrolment's code step is still current: the second step by a recovery code.
  await page.locator("summary", { hasText: "Lost your authenticator?" }).click();
  await page.fill("#recovery", sam.recoveryCodes[0]);
  await Promise.all([page.waitForURL(`${bo.url}/`), page.click("#recovery-submit")]);
  await page.goto(`${bo.url}/transactions`);
  const head = await page.locator("#results thead th").allTextContents();
  t.notOk(head.includes("Card"), `no Card column (${head.join(", ")})`);
  t.notOk(head.includes("Made by"), "no Made by column");
  t.ok(head.includes("Amount"), "the others are there");
  t.equal(await page.locator("#results tbody tr").count(), 25, "25 rows a page");
  t.equal(await page.locator("#page_size").inputValue(), "25");
  // Another operator's list is its own.
  const other = await pageAs(t, vic, 1366, 768);
  await other.goto(`${bo.url}/transactions`);
  t.ok((await other.locator("#results thead th").allTextContents()).includes("Card"), "the viewer keeps the default columns");
  t.equal(await other.locator("#results tbody tr").count(), 50);
});

t.test("a saved search is listed, applied and deleted; another operator cannot delete it", async (t) => {
  const page = await pageAs(t, vic, 1366, 768);
  await page.goto(`${bo.url}/transactions?pin=cust-2&type=sale`);
  await page.click("#saved-searches > summary");
  await page.fill("#saved-name", "Customer 2's sales");
  await Promise.all([page.waitForURL(/notice=saved/), page.click("#save-search")]);
  t.match(await page.textContent("#notice"), /saved as “Customer 2's sales”/);
  await page.goto(`${bo.url}/transactions`);
  await page.click("#saved-searches > summary");
  const link = page.locator("#saved-searches a.saved-link", { hasText: "Customer 2's sales" });
  await Promise.all([page.waitForURL(`${bo.url}/transactions?pin=cust-2&type=sale`), link.click()]);
  const texts = await page.locator("#results tbody tr").allTextContents();
  t.ok(texts.length > 0 && texts.every((x) => x.includes("cust-2")), "the search applied");
  await axeClean(t, page, "saved-searches");
  // Forged: ada posts the delete of vic's search.
  const id = /saved-searches\/([^/]+)\/delete/.exec((await page.content()) ?? "")?.[1] ?? "";
  const forged = await ada.client.post(`/transactions/saved-searches/${id}/delete`, {}, "/transactions");
  t.equal(forged.status, 404, "another operator's search is not found");
  await page.goto(`${bo.url}/transactions`);
  await page.click("#saved-searches > summary");
  t.equal(await link.count(), 1, "still there");
  await page.click('#saved-searches button[aria-label="Delete the saved search Customer 2\'s sales"]');
  await page.waitForURL(/notice=unsaved/);
  t.equal(await page.locator("#saved-searches a.saved-link").count(), 0, "deleted");
});

t.test("the audit log: one line per event, details on demand", async (t) => {
  const page = await pageAs(t, ada.client, 1920, 1080);
  await page.goto(`${bo.url}/audit`);
  const fold = await aboveFold(page, "#audit tbody tr");
  t.comment(`audit log at 1920x1080: ${fold.rows} rows above the fold, ${fold.tallest} px tall`);
  t.ok(fold.tallest < 40, "one line per event");
  t.match(await page.textContent("#audit"), /search\.delete/, "the saved search's deletion is audited");
  const first = page.locator("#audit tbody tr").first().locator("details");
  t.notOk(await first.getAttribute("open"), "folded");
  await first.locator("summary").click();
  t.ok(await first.locator("dl").isVisible(), "opened on demand");
  await axeClean(t, page, "audit");
});

t.test("the dashboard's period: 7 days, custom days, volume per currency; a period not understood is named", async (t) => {
  const page = await pageAs(t, ada.client, 1366, 768);
  await page.goto(`${bo.url}/`);
  await page.check("#period-7d");
  await Promise.all([page.waitForURL(/period=7d/), page.click("#period-show")]);
  t.equal(await page.isChecked("#period-7d"), true);
  const usd = page.locator("#volume-by-currency tbody tr", { hasText: "USD" });
  const minor = Number(await usd.locator("td[data-minor]").getAttribute("data-minor"));
  t.ok(minor >= 60 * 1000, `the approved USD volume in minor units (${minor})`);
  await axeClean(t, page, "dashboard-period");
  const res = await page.goto(`${bo.url}/?period=custom&from=2026-02-30`);
  t.equal(res?.status(), 400);
  t.match(await page.textContent("#notice"), /not understood.*\(from\)/);
});
