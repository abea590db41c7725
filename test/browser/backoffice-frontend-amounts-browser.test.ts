/**
 * A frontend's amounts and currencies in the Backoffice, in Debian's Chromium against the running service (issue 32,
 * point 6): from the merchant page an admin opens the frontend's page, adds currencies, sets preset amounts and
 * limits as money (an amount with too many decimals is named beside its field before anything is sent; BHD 5.500,
 * which the wire unit cannot carry, is named by the engine beside its field), and the preview shows the buttons and
 * bounds a customer paying in each currency would see. A viewer sees the preview and no form. Each page is
 * axe-clean, usable by keyboard and fits 375 px; the page's screenshot is kept for docs/backoffice.md.
 */
import t, { type Test } from "tap";
import type { Browser, Page } from "playwright-core";
import type { BackofficeHandle } from "../../edge/backoffice/server.ts";
import { type ConsoleClient, consolePage, enrolOperators, startConsole } from "../support/backoffice.ts";
import { axeClean, keyboardReaches, launchBrowser, screenshot } from "../support/browser.ts";
import { useService } from "../support/service.ts";

const service = useService(t);
let browser: Browser;
let bo: BackofficeHandle;
let clients: Map<string, ConsoleClient>;

t.before(async () => {
  bo = await startConsole(service());
  browser = await launchBrowser();
  clients = await enrolOperators(service(), bo.url, [
    ["ada", "admin"],
    ["vera", "viewer"],
  ]);
});
t.teardown(async () => {
  await browser?.close();
  await bo?.close();
});

const pageAs = (t: Test, login: string, width = 1280): Promise<Page> => consolePage(t, browser, bo.url, clients.get(login)!, { width });

const fits = async (page: Page) => ((await page.evaluate("document.documentElement.scrollWidth")) as number) <= 375;

t.test("an admin sets currencies, presets and limits as money, and previews them per currency", async (t) => {
  const page = await pageAs(t, "ada");
  await page.goto(`${bo.url}/merchants/m-single`);
  await Promise.all([page.waitForURL(/\/merchants\/m-single\/frontends\/single-usd$/), page.click("#frontend-single-usd-amounts")]);
  t.equal(await page.textContent("h1"), "Frontend single-usd");
  await axeClean(t, page, "the frontend page");

  // Currencies first: the limits of a currency added can be set once it is saved.
  await page.fill("#fe-currencies", "USD, JPY, BHD");
  await page.fill("#fe-presets", "10.00, 25.5, 50");
  await Promise.all([page.waitForURL(/notice=saved/), page.click("#save-amounts")]);
  t.match(await page.textContent("#notice"), "Saved.");
  t.equal(await page.inputValue("#fe-presets"), "10.00, 25.50, 50.00", "the presets read back as money");
  t.ok(await page.isVisible("#limit-BHD-deposit_min"), "a row of limits for each currency");

  // An amount with more decimals than its currency has: named beside its field, nothing sent.
  await page.fill("#limit-USD-deposit_min", "5.005");
  await page.fill("#limit-USD-deposit_max", "1000");
  const typo = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.click("#save-amounts")]);
  t.equal(typo[0].status(), 400);
  t.match(await page.textContent("#limit-USD-deposit_min-error"), "Write an amount of USD");
  t.equal(await page.inputValue("#limit-USD-deposit_min"), "5.005", "what was typed is kept");
  await axeClean(t, page, "the refused form");

  // BHD 5.500: an amount of BHD, but the merchant interface carries BHD in whole dinars: the engine names it.
  await page.fill("#limit-USD-deposit_min", "5.00");
  await page.fill("#limit-BHD-deposit_min", "5.500");
  const unit = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.click("#save-amounts")]);
  t.equal(unit[0].status(), 400);
  t.match(await page.textContent("#notice"), "limits[1].deposit_min_minor: must be a multiple of 1000 minor units");
  t.match(await page.textContent("#limit-BHD-deposit_min-error"), "carries BHD in whole units", "the fault beside its field");

  await page.fill("#limit-BHD-deposit_min", "5");
  await page.fill("#limit-JPY-deposit_max", "3000");
  await Promise.all([page.waitForURL(/notice=saved/), page.click("#save-amounts")]);
  const preview = await page.textContent("#amounts-preview tbody");
  t.match(preview, /USD10\.00 USD25\.50 USD50\.00 USDfrom 5\.00 USD to 1000\.00 USDany amount/, "USD: the three buttons and the deposit bounds");
  t.match(preview, /JPY1000 JPY2550 JPY1 preset is[^.]*\.up to 3000 JPYany amount/, "JPY reads the same wire numbers as yen");
  t.match(preview, /BHD1000\.000 BHD2550\.000 BHD5000\.000 BHDfrom 5\.000 BHDany amount/, "and BHD as whole dinars");
  t.match(preview, /1 preset is outside this currency's deposit limits/, "5000 yen is above JPY's 3000 and not offered");
  const rows = await service().sql<{ deposit_presets: number[]; limits: unknown }>("select deposit_presets, limits from frontend where name = 'single-usd'");
  t.same(rows[0].deposit_presets, [1000, 2550, 5000]);
  t.same(rows[0].limits, { USD: { depositMin: 500, depositMax: 100_000 }, JPY: { depositMax: 3000 }, BHD: { depositMin: 5 } });
  const audit = await service().sql<{ outcome: string }>("select outcome from audit_log where action = 'frontend.update' and actor = 'ada' order by id");
  t.same(
    audit.map((r) => r.outcome),
    ["success", "failure", "success"],
    "each change and the engine's refusal are audited",
  );

  await axeClean(t, page, "the saved page");
  await keyboardReaches(t, page, ["input#fe-currencies", "input#fe-presets", "input#limit-BHD-withdrawal_max", "button#save-amounts"], 80);
  t.comment(`screenshot: ${await screenshot(page, "backoffice-frontend-amounts")}`);

  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  t.ok(await fits(page), "the frontend page fits 375 px");
  t.comment(`screenshot: ${await screenshot(page, "backoffice-frontend-amounts-375")}`);
});

t.test("a viewer sees the preview and no form; a forged form is refused", async (t) => {
  const page = await pageAs(t, "vera", 375);
  await page.goto(`${bo.url}/merchants/m-single`);
  await Promise.all([page.waitForURL(/frontends\/single-usd$/), page.click("#frontend-single-usd-amounts")]);
  t.match(await page.textContent("#amounts-preview"), "10.00 USD");
  t.equal(await page.locator("main form[method=post]").count(), 0, "no form that changes the amounts");
  t.ok(await fits(page), "fits 375 px");
  await axeClean(t, page, "the viewer's frontend page");
  const forged = await clients
    .get("vera")!
    .post("/merchants/m-single/frontends/single-usd/amounts", { base_currency: "USD", currencies: "USD" }, "/merchants/m-single");
  t.equal(forged.status, 403);
  t.equal((await page.goto(`${bo.url}/merchants/m-single/frontends/none`))?.status(), 404, "a frontend the merchant lacks");
});
