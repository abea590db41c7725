/**
 * A frontend's Branding section in Debian's Chromium against the running service (issue 32 point 6, issue 33 point 1;
 * docs/backoffice.md, Branding): an admin types a draft, chooses a PNG logo, previews it (the header drawn with the
 * draft's colours and the logo served by the Backoffice itself, shown under its CSP; each pair's ratio as the engine
 * measured it), saves it, and the page then shows the saved header. The page is axe-clean before and after, every
 * control of the form is reached by keyboard with its focus shown, and it fits 375 px. The section's screenshot is
 * kept for docs/backoffice.md (docs/images/backoffice-branding.png).
 */
import { readFileSync } from "node:fs";
import t from "tap";
import type { Browser, Page } from "playwright-core";
import type { BackofficeHandle } from "../../edge/backoffice/server.ts";
import { consolePage, enrolOperators, startConsole, type ConsoleClient } from "../support/backoffice.ts";
import { axeClean, keyboardReaches, launchBrowser, screenshotDir } from "../support/browser.ts";
import { SECRET } from "../support/merchants.ts";
import { useService } from "../support/service.ts";
import { join } from "node:path";

/** A logo a merchant would upload (the fixture the hosted Cashier's branding test uses: a star and the name). */
const LOGO = readFileSync(new URL("../fixtures/lucky-star-logo.png", import.meta.url));

const service = useService(
  t,
  {},
  { merchants: { merchants: [{ merchant_id: "m-brand", secret: SECRET, frontends: [{ name: "brand-usd", base_currency: "USD" }] }] } },
);
const PAGE = "/merchants/m-brand/frontends/brand-usd";
let browser: Browser;
let bo: BackofficeHandle;
let clients: Map<string, ConsoleClient>;

t.before(async () => {
  bo = await startConsole(service());
  browser = await launchBrowser();
  clients = await enrolOperators(service(), bo.url, [["ada", "admin"]]);
});
t.teardown(async () => {
  await browser?.close();
  await bo?.close();
});

/** Whether the image has loaded (a logo the CSP or the route refused has no natural width). */
const loaded = async (page: Page, selector: string) => (await page.$eval(selector, (img) => (img as unknown as { naturalWidth: number }).naturalWidth)) > 0;
const fits = async (page: Page) => ((await page.evaluate("document.documentElement.scrollWidth")) as number) <= 375;

t.test("an admin uploads a logo, previews the draft with the engine's ratios, and saves it", async (t) => {
  const page = await consolePage(t, browser, bo.url, clients.get("ada")!, { width: 1280 });
  const refusedImages: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/.test(m.text())) refusedImages.push(m.text());
  });
  await page.goto(`${bo.url}${PAGE}`);
  t.match(await page.textContent("#brand-none"), "Not branded");
  await axeClean(t, page, "the frontend page before branding");

  await page.fill("#brand-display_name", "Lucky Star");
  await page.fill("#brand-primary_color", "#FFD60A");
  await page.fill("#brand-background_color", "#fffdf5");
  await page.selectOption("#brand-corner_style", "pill");
  await page.setInputFiles("#brand-logo", { name: "logo.png", mimeType: "image/png", buffer: LOGO });
  const previewed = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.click("#brand-preview")]);
  t.equal(previewed[0].status(), 200);
  await page.waitForLoadState("load");
  t.match(await page.textContent("#notice"), "Preview only: nothing is saved yet.");
  t.match(await page.textContent("#brand-contrasts tbody"), /Text on the background#1d2330 \/ #fffdf515\.44:1Passes/);
  t.equal((await page.$$("#brand-contrasts tbody tr")).length, 4, "the four pairs the engine measured");
  t.ok(await loaded(page, "#brand-draft-logo"), "the previewed logo is shown from the Backoffice's own route");
  t.equal(await page.getAttribute("#brand-draft-logo", "alt"), "Lucky Star");
  const paper = await page.$eval(
    "#brand-draft",
    (el) => (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(el).backgroundColor,
  );
  t.equal(paper, "rgb(255, 253, 245)", "the header is drawn with the draft's background");
  t.equal(await page.inputValue("#brand-display_name"), "Lucky Star", "the draft stays in the form");
  await axeClean(t, page, "the preview");

  await keyboardReaches(
    t,
    page,
    [
      "input#brand-display_name",
      "input#brand-primary_color",
      "input#brand-background_color",
      "input#brand-text_color",
      "select#brand-corner_style",
      "input#brand-remove-logo",
      "input#brand-logo",
      "button#brand-preview",
      "button#brand-save",
    ],
    150,
  );

  await page.locator("#branding").screenshot({ path: join(screenshotDir(), "backoffice-branding.png") });
  t.comment(`screenshot: ${join(screenshotDir(), "backoffice-branding.png")}`);

  await Promise.all([page.waitForURL(/notice=branded/), page.click("#brand-save")]);
  t.match(await page.textContent("#notice"), "Branding saved");
  t.ok(await loaded(page, "#brand-now-logo"), "the saved header with its logo");
  const stored = (await service().admin.getMerchant({ merchantId: "m-brand" })).merchant!.frontends[0].branding;
  t.same([stored?.displayName, stored?.primaryColor, stored?.cornerStyle, stored?.logoSha256.length], ["Lucky Star", "#ffd60a", "pill", 64]);
  await axeClean(t, page, "the saved page");
  t.same(refusedImages, [], "nothing refused by the CSP");

  await page.setViewportSize({ width: 375, height: 800 });
  await page.reload();
  t.ok(await fits(page), "the page fits 375 px");
  await page.locator("#brand-save").scrollIntoViewIfNeeded();
  t.ok(await page.isVisible("#brand-save"), "Save is reachable at 375 px");
});
