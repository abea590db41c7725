/**
 * A merchant's processor accounts and routing in the Backoffice, in Debian's Chromium against the running service
 * (issue 30, points 1 and 6): an admin adds a Checkout.com account (a setting the connector's schema refuses is named
 * beside its field, the credentials typed are never sent back), sets the cascade order and a routing rule (a bad
 * currency named beside its field), and sees the preview say where a sale would go; a sale the rule routes names it
 * on its detail page; a viewer sees the accounts, rules and preview but no form that changes them, and the engine
 * refuses its forged forms. Every page is axe-clean, usable by keyboard and fits 375 px; the routing page's
 * screenshot is kept for the docs.
 */
import t, { type Test } from "tap";
import type { Browser, Page } from "playwright-core";
import type { BackofficeHandle } from "../../edge/backoffice/server.ts";
import { type ConsoleClient, consolePage, enrolOperators, startConsole } from "../support/backoffice.ts";
import { axeClean, keyboardReaches, launchBrowser, screenshot } from "../support/browser.ts";
import { useService } from "../support/service.ts";
import { orderId, processSale } from "../support/wire.ts";

const service = useService(t);
let browser: Browser;
let bo: BackofficeHandle;
let clients: Map<string, ConsoleClient>;

const SECRET_KEY = "sk_sbox_browser_secret_0123456789";
const WEBHOOK_SECRET = "whsec_browser_0123456789abcdef";
const CHANNEL = `pc_${"b".repeat(26)}`;

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

t.test("an admin adds a Checkout.com account, sets the cascade and a rule, and previews a sale", async (t) => {
  const page = await pageAs(t, "ada");
  await page.goto(`${bo.url}/merchants/m-single`);
  await axeClean(t, page, "the merchant page");
  // By keyboard: the connector is chosen, then Continue.
  await page.focus("#new-account-connector");
  await page.selectOption("#new-account-connector", "checkout");
  await page.keyboard.press("Tab");
  await Promise.all([page.waitForURL(/new-account\?connector=checkout/), page.keyboard.press("Enter")]);
  t.equal(await page.textContent("h1"), "New checkout account");
  t.ok(await page.isVisible("#setting-processing_channel_id"), "the setting the connector requires has its field");
  t.same(
    await page.$$eval("input[type=password]", (els) => els.map((e) => e.getAttribute("name"))),
    ["credential:secret_key", "credential:webhook_secret", "credential:webhook_secret_previous"],
    "a field per credential, the previous webhook key of a rotation last",
  );
  await axeClean(t, page, "the new account form");

  await page.fill("#account-name", "cko-main");
  await page.fill("#account-url", "https://api.sandbox.checkout.com");
  await page.fill("#setting-processing_channel_id", "pc_bad");
  await page.fill("#credential-secret_key", SECRET_KEY);
  await page.fill("#credential-webhook_secret", WEBHOOK_SECRET);
  const refused = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.click("#save-account")]);
  t.equal(refused[0].status(), 400);
  t.match(await page.textContent("#setting-processing_channel_id-error"), "must be a processing channel id", "the fault beside its field");
  t.equal(await page.inputValue("#setting-processing_channel_id"), "pc_bad", "what was typed is kept");
  t.notMatch(await page.content(), SECRET_KEY, "a typed credential is never sent back");
  await axeClean(t, page, "the refused account form");

  await page.fill("#setting-processing_channel_id", CHANNEL);
  await page.fill("#credential-secret_key", SECRET_KEY);
  await page.fill("#credential-webhook_secret", WEBHOOK_SECRET);
  await Promise.all([page.waitForURL(/\/merchants\/m-single\?notice=accountSaved/), page.click("#save-account")]);
  const row = await page.textContent("#accounts-table tbody");
  t.match(row, /cko-main\s*checkout/);
  t.match(row, "secret_key, webhook_secret", "which credentials are set");
  t.notMatch(await page.content(), SECRET_KEY);

  // Editing: the credentials say "set", and blank keeps them.
  await page.click('a[aria-label="Edit the account cko-main"]');
  t.match(await page.textContent("#credential-secret_key-hint"), "Set: leave blank to keep it");
  t.equal(await page.inputValue("#credential-secret_key"), "");
  await Promise.all([page.waitForURL(/notice=accountSaved/), page.click("#save-account")]);

  await page.click("#routing-link");
  await page.fill("#cascade-processors", "cko-main, sim-a");
  await Promise.all([page.waitForURL(/notice=cascade/), page.click("#save-cascade")]);
  t.equal(await page.textContent("#processors"), "cko-main → sim-a");

  await page.click("#add-rule summary");
  await page.fill("#rule-new-name", "us-visa");
  await page.fill("#rule-new-currency", "USD, EURO");
  await page.check("#rule-new-brand-visa");
  await page.fill("#rule-new-processors", "sim-a, cko-main");
  const bad = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.click("#add-rule-button")]);
  t.equal(bad[0].status(), 400);
  t.match(await page.textContent("#notice"), "Rule 1, when.currency[1]: must be an ISO 4217 code");
  t.match(await page.textContent("#rule-new-currency-error"), "must be an ISO 4217 code", "the fault beside its field, the form open as typed");
  await axeClean(t, page, "the refused rule");
  await page.fill("#rule-new-currency", "USD");
  await Promise.all([page.waitForURL(/notice=saved/), page.click("#add-rule-button")]);
  t.match(await page.textContent("#rule-1"), /us-visa[\s\S]*currency USD; brand visa → sim-a → cko-main/);

  await page.fill("#preview-currency", "USD");
  await page.fill("#preview-amount", "1000");
  await page.fill("#preview-bin", "411111");
  await Promise.all([page.waitForURL(/amount=1000/), page.click("#preview-button")]);
  t.match(await page.textContent("#preview-answer"), "This sale would go by us-visa to: sim-a → cko-main");
  await axeClean(t, page, "the routing page");
  await keyboardReaches(t, page, ["input#cascade-processors", "button#save-cascade", "summary", "button#preview-button"], 120);

  await page.fill("#preview-currency", "EUR");
  await Promise.all([page.waitForURL(/currency=EUR/), page.click("#preview-button")]);
  t.match(await page.textContent("#preview-answer"), "This sale would go by no rule (the cascade order) to: cko-main → sim-a");

  // The rule routes a real sale, and the sale's detail names it.
  const sale = await processSale(service().edgeUrl, { merchant_id: "m-single", frontend: "single-usd", order_id: orderId("routed") });
  t.equal(sale.body.transaction_status, "approved", sale.text);
  await page.goto(`${bo.url}/transactions/${sale.body.trace_id}`);
  t.equal(await page.textContent("#routing-rule"), "us-visa", "the detail names the rule that routed it");

  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`${bo.url}/merchants/m-single/routing?type=sale&currency=USD&amount=1000&bin=411111#preview`);
  t.ok(((await page.evaluate("document.documentElement.scrollWidth")) as number) <= 375, "the routing page fits 375 px");
  t.comment(`screenshot: ${await screenshot(page, "backoffice-routing-375")}`);
  await page.goto(`${bo.url}/merchants/m-single/accounts/cko-main`);
  t.ok(((await page.evaluate("document.documentElement.scrollWidth")) as number) <= 375, "the account page fits 375 px");
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${bo.url}/merchants/m-single/routing?type=sale&currency=USD&amount=1000&bin=411111`);
  await page.click("#rule-1 summary");
  t.comment(`screenshot: ${await screenshot(page, "backoffice-routing")}`);
});

t.test("a viewer sees accounts, rules and the preview, no form that changes them; forged forms are refused", async (t) => {
  const page = await pageAs(t, "vera");
  await page.goto(`${bo.url}/merchants/m-single`);
  t.equal(await page.locator("#new-account-connector").count(), 0, "no way to add an account");
  t.equal(await page.locator("#accounts-table a").count(), 0, "no edit link");
  t.match(await page.textContent("#accounts-table"), "cko-main");
  await page.click("#routing-link");
  t.equal(await page.locator("main form[method=post]").count(), 0, "no form that changes the routing");
  t.match(await page.textContent("#rule-1"), "us-visa");
  await page.fill("#preview-currency", "USD");
  await page.fill("#preview-amount", "500");
  await page.fill("#preview-bin", "41111111");
  await Promise.all([page.waitForURL(/amount=500/), page.click("#preview-button")]);
  t.match(await page.textContent("#preview-answer"), "by us-visa", "a viewer may preview");
  await axeClean(t, page, "the viewer's routing page");
  t.equal((await page.goto(`${bo.url}/merchants/m-single/accounts/cko-main`))?.status(), 403);

  const vera = clients.get("vera")!;
  const from = "/merchants/m-single/routing";
  const forged = [
    await vera.post("/merchants/m-single/routing/rules", { etag: "", currency: "USD", processors: "sim-a" }, from),
    await vera.post("/merchants/m-single/routing/rules/1/delete", { etag: "" }, from),
    await vera.post("/merchants/m-single/routing/processors", { processors: "sim-a" }, from),
    await vera.post(
      "/merchants/m-single/accounts",
      { name: "x-1", connector: "checkout", url: "https://x.example", "setting:processing_channel_id": CHANNEL },
      from,
    ),
    await vera.post("/merchants/m-single/accounts/cko-main/delete", {}, from),
  ];
  t.same(
    forged.map((r) => r.status),
    [403, 403, 403, 403, 403],
    "the engine refuses each",
  );
  const ada = clients.get("ada")!;
  const after = await ada.get("/merchants/m-single/routing");
  t.match(after.body, "us-visa");
  t.match(after.body, /id="processors"><bdi dir="ltr">cko-main → sim-a/, "nothing changed");
});
