/**
 * The hosted Cashier's deposit in Chromium against the running service, as a
 * customer meets it: the platform starts a session over HTTP, the customer
 * opens the one-time autologin address and pays on the deposit page; the
 * platform stub receives Validation with the session's auth_token,
 * notifications, and RecordFailedDeposit with SCOrderID/Udef1/Udef2 and
 * CreatedBy customer. Approved (by keyboard alone), declined and another
 * card, pending followed until final (with and without scripts), 3-D Secure
 * inside the flow, the cascade, a saved card; English, Arabic and German; framed by
 * an allowed origin (exact-origin events) and refused to any other; axe on
 * every page and state; no full card number in any page or log.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import t, { type Test } from "tap";
import type { Browser, BrowserContextOptions, Page, Response } from "playwright-core";
import { axeViolations, keyboardWalk, launchBrowser, screenshot } from "../support/browser.ts";
import { cashierMerchants, SECRET, sessionBody, startSession } from "../support/cashier.ts";
import { startPlatformStub, type PlatformStub } from "../support/platform-stub.ts";
import { useService } from "../support/service.ts";
import { replySigned } from "../support/wire.ts";

const CARDS = {
  approved: "4111111111111111",
  declined: "4000000000000002",
  pending: "4000000000000077",
  threeDs: "4000000000003220",
  cascade: "4000000000000259",
} as const;

let browser: Browser;
let stub: PlatformStub;
let parent: string;
let stranger: string;
const servers: Server[] = [];

const listen = async (server: Server): Promise<number> => {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
};

/** A shop page framing the Cashier at ?src=..., recording every message it gets (or linking to it, or opening it by script). */
const shopPage = (src: string, link?: string | null, open?: string | null) =>
  open
    ? `<!doctype html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1><button id="open" type="button">Pay</button>
<script>document.getElementById("open").addEventListener("click", () => { window.w = window.open(${JSON.stringify(open).replace(/</g, "\\u003c")}); });</script></body></html>`
    : link
      ? `<!doctype html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1><a id="pay" href="${link.replace(/"/g, "&quot;")}" target="_blank">Pay</a></body></html>`
      : `<!doctype html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1>
<script>window.events = []; addEventListener("message", (e) => {
  events.push({ origin: e.origin, data: e.data });
  // As a shop does: the frame takes the height the Cashier reports.
  if (e.data && e.data.type === "cashier:resize") document.querySelector("iframe").height = String(e.data.height);
});</script>
<iframe title="Cashier" src="${src.replace(/"/g, "&quot;")}" width="480" height="900"></iframe></body></html>`;

t.before(async () => {
  browser = await launchBrowser();
  stub = await startPlatformStub({ secrets: { "m-cash": SECRET, "m-cash-manual": SECRET } });
  const shop = createServer((req, res) => {
    res.setHeader("content-type", "text/html; charset=utf-8");
    const q = new URL(req.url ?? "/", "http://x").searchParams;
    res.end(shopPage(q.get("src") ?? "", q.get("link"), q.get("open")));
  });
  parent = `http://localhost:${await listen(shop)}`;
  const other = createServer((req, res) => {
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end(shopPage(new URL(req.url ?? "/", "http://x").searchParams.get("src") ?? ""));
  });
  stranger = `http://127.0.0.1:${await listen(other)}`;
});

const service = useService(t, { CASHIER_CALLBACK_ALLOW_PRIVATE: "1", CASHIER_WORKER_POLL_MS: "100" }, () => ({
  merchants: cashierMerchants(stub.url, parent),
}));

t.teardown(async () => {
  await browser?.close();
  await stub?.close();
  for (const s of servers) s.close();
});

async function freshPage(t: Test, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 520, height: 900 }, ...options });
  context.setDefaultTimeout(20_000);
  t.teardown(() => context.close());
  const page = await context.newPage();
  pages.push(page);
  return page;
}

/** Every page's HTML as the browser got it, for the card-number scan at the end. */
const rendered: string[] = [];
const pages: Page[] = [];
async function keep(page: Page): Promise<void> {
  // A page that follows a pending sale reloads itself: when it is mid-navigation, wait for the next page and read
  // that one (every page must be kept, not only the ones a quick machine reads between two reloads).
  for (let tries = 0; ; tries++) {
    try {
      rendered.push(await page.content());
      return;
    } catch (err) {
      if (tries >= 5 || !/navigating/.test(String(err))) throw err;
      await page.waitForLoadState("domcontentloaded");
    }
  }
}

async function openSession(t: Test, over: Record<string, unknown> = {}) {
  const body = sessionBody({
    return_url: `${stub.url}/return`,
    notification_url: `${stub.url}/notify`,
    sc_order_id: "sc-77",
    udef1: "u-one",
    udef2: "u-two",
    ...over,
  });
  const reply = await startSession(service().edgeUrl, body);
  t.equal(reply.http, 200, "the session starts", { reply: reply.body });
  t.equal(reply.body.status, 0);
  t.ok(replySigned(reply.body), "the reply is signed");
  return { body, reply: reply.body as { redirect_url: string; auth_token: string; expires_at: number } };
}

async function axeClean(t: Test, page: Page, what: string): Promise<void> {
  t.same(await axeViolations(page), [], `axe: ${what}`);
  await keep(page);
}

async function fillNewCard(page: Page, number: string): Promise<void> {
  if (await page.locator("#card-new").count()) await page.check("#card-new");
  await page.fill("#card_number", number);
  await page.fill("#card_exp", "12/30");
  await page.fill("#cvv", "123");
  await page.fill("#holder", "Jane Doe");
}

t.test("session start over HTTP: signed reply with the autologin address, auth_token and expiry; refusals as Process", async (t) => {
  const { reply } = await openSession(t);
  t.match(reply.redirect_url, new RegExp(`^${service().edgeUrl}/cashier/autologin/[A-Za-z0-9_-]{43}$`));
  t.ok(reply.auth_token.length > 0 && reply.auth_token.length <= 75);
  t.ok(reply.expires_at > Date.now() / 1000);
  const bad = await startSession(service().edgeUrl, { ...sessionBody(), signature: "0".repeat(96) });
  t.equal(bad.http, 401);
  t.ok(bad.body.status > 0);
});

t.test("autologin once: the deposit page, then the same link says only that it cannot be used", async (t) => {
  const { reply } = await openSession(t);
  const page = await freshPage(t);
  const res = await page.goto(reply.redirect_url);
  t.equal(res?.status(), 200);
  t.match(page.url(), /\/cashier\/s\/[A-Za-z0-9_-]{43}\/deposit$/, "the browser session rides in the path");
  t.equal(await page.textContent("h1"), "Deposit");
  t.equal(res?.headers()["cache-control"], "no-store");
  t.equal(res?.headers()["referrer-policy"], "no-referrer");
  t.match(res?.headers()["content-security-policy"] ?? "", `frame-ancestors ${parent}`);
  t.same(await page.context().cookies(), [], "no cookie at all");
  await axeClean(t, page, "deposit page");
  t.comment(`screenshot: ${await screenshot(page, "cashier-deposit-en")}`);

  const again = await freshPage(t);
  const second = await again.goto(reply.redirect_url);
  t.equal(second?.status(), 410);
  t.equal(await again.textContent("h1"), "This link cannot be used");
  t.notMatch(await again.content(), /Jane|USD|<form/, "and nothing else");
  await axeClean(t, again, "used link");
  t.comment(`screenshot: ${await screenshot(again, "cashier-autologin-used-en")}`);
});

t.test("in a new tab opened from the shop: the Cashier needs nothing from the opener", async (t) => {
  const { reply } = await openSession(t);
  const page = await freshPage(t);
  await page.goto(`${parent}/shop?link=${encodeURIComponent(reply.redirect_url)}`);
  const [tab] = await Promise.all([page.context().waitForEvent("page"), page.click("#pay")]);
  await tab.locator("h1", { hasText: "Deposit" }).waitFor();
  await tab.check("#preset-1000");
  await fillNewCard(tab, CARDS.approved);
  await Promise.all([tab.waitForURL(/\/result\/\d+/), tab.click("#pay")]);
  t.equal(await tab.textContent("h1"), "Payment approved");
  t.same(await tab.context().cookies(), [], "no cookie was needed");
});

t.test("opened by the shop's script: the shop keeps no handle on the Cashier's window (Cross-Origin-Opener-Policy)", async (t) => {
  const { reply } = await openSession(t);
  const page = await freshPage(t);
  await page.goto(`${parent}/shop?open=${encodeURIComponent(reply.redirect_url)}`);
  const documents: Response[] = [];
  page.context().on("response", (r) => {
    // The pages themselves: the autologin link answers with a redirect to the session's page, which carries the policy.
    if (r.url().startsWith(service().edgeUrl) && r.request().resourceType() === "document" && r.status() === 200) documents.push(r);
  });
  const [tab] = await Promise.all([page.context().waitForEvent("page"), page.click("#open")]);
  await tab.locator("h1", { hasText: "Deposit" }).waitFor();
  t.ok(documents.length > 0, "the Cashier's pages were seen");
  for (const d of documents)
    t.equal(
      (await d.allHeaders())["cross-origin-opener-policy"],
      "same-origin",
      `the page at ${new URL(d.url()).pathname.replace(/\/s\/[^/]+/, "/s/[session]")}`,
    );
  t.equal(await page.evaluate("window.w.closed"), true, "the opener's handle reads as closed: the window is no longer reachable from it");
  await page.evaluate("try { window.w.location = 'https://example.invalid/look-alike'; } catch (e) {}");
  // A navigation the handle could still start would begin at once; a moment later the Cashier is still there.
  await tab.waitForTimeout(300);
  t.equal(await tab.textContent("h1"), "Deposit", "and the shop cannot navigate it away");
  t.match(tab.url(), /\/cashier\//);
});

t.test("approved by keyboard alone: presets, a new card, saved; receipt, Continue; Validation with the auth_token, a notification", async (t) => {
  const { reply } = await openSession(t);
  const page = await freshPage(t);
  await page.goto(reply.redirect_url);
  const stops = await keyboardWalk(page);
  for (const s of stops) t.ok(s.visible, `focus visible on ${s.element}`);
  t.ok(
    stops.some((s) => s.element === "input#card_number") && stops.at(-1)?.element === "button#pay",
    "Tab reaches the card fields and ends on the one submit button",
  );
  // Type it all with the keyboard: focus the first preset by Tab from the top.
  await page.focus("#preset-2500");
  await page.keyboard.press("Space");
  for (const [id, text] of [
    ["#card_number", CARDS.approved],
    ["#card_exp", "12/30"],
    ["#cvv", "123"],
    ["#holder", "Jane Doe"],
  ] as const) {
    await page.focus(id);
    await page.keyboard.type(text);
  }
  t.equal((await page.textContent("#card_number-brand"))?.trim(), "Card brand: Visa", "the brand as it is typed");
  await page.focus("#save_card");
  await page.keyboard.press("Space");
  await axeClean(t, page, "deposit page filled in");
  t.comment(`screenshot: ${await screenshot(page, "cashier-deposit-filled-en")}`);
  await page.focus("#pay");
  await Promise.all([page.waitForURL(/\/result\/\d+/), page.keyboard.press("Enter")]);
  t.equal(await page.textContent("h1"), "Payment approved");
  t.equal((await page.textContent("#receipt-amount"))?.trim(), "25.00 USD");
  t.equal((await page.textContent("#receipt-card"))?.trim(), "Visa 411111******1111");
  await axeClean(t, page, "approved");
  t.comment(`screenshot: ${await screenshot(page, "cashier-approved-en")}`);

  const [validation] = await stub.waitFor("validation", (c) => (c.body as any)?.auth_token === reply.auth_token);
  t.equal((validation.body as any).created_by, "customer", "Validation says the customer made it");
  t.equal((validation.body as any).amount, 2500);
  await stub.waitFor("notification", (c) => (c.body as any)?.transaction_status === "approved" && (c.body as any)?.amount === 2500);

  await page.focus("#continue");
  await Promise.all([page.waitForURL(`${stub.url}/return`), page.keyboard.press("Enter")]);
  t.equal(await page.textContent("h1"), "Back at the merchant");
});

t.test("declined: the customer's reason, Try another card gives a fresh form and a new order; RecordFailedDeposit with SCOrderID, Udef1, Udef2", async (t) => {
  const { reply } = await openSession(t);
  const page = await freshPage(t);
  await page.goto(reply.redirect_url);
  await page.fill("#amount", "12.34");
  await fillNewCard(page, CARDS.declined);
  await Promise.all([page.waitForURL(/\/result\/\d+/), page.click("#pay")]);
  t.equal(await page.textContent("h1"), "Payment declined");
  t.equal(await page.textContent("#result-message"), "Your card issuer declined the payment. Contact them or use another card.");
  const firstOrder = (await page.textContent("#receipt-order"))?.trim();
  const firstTrace = Number((await page.textContent("#receipt-reference"))?.trim());
  await axeClean(t, page, "declined");
  t.comment(`screenshot: ${await screenshot(page, "cashier-declined-en")}`);

  const [rfd] = await stub.waitFor("record_failed_deposit", (c) => (c.body as any)?.TraceID === firstTrace);
  const b = rfd.body as Record<string, unknown>;
  t.equal(b.SCOrderID, "sc-77");
  t.equal(b.Udef1, "u-one");
  t.equal(b.Udef2, "u-two");
  t.equal(b.CreatedBy, "customer");

  await Promise.all([page.waitForURL(/\/deposit/), page.click("#try-again")]);
  t.equal(await page.inputValue("#card_number"), "", "a fresh form, no card number kept");
  await page.fill("#amount", "12.34");
  await fillNewCard(page, CARDS.approved);
  await Promise.all([page.waitForURL(/\/result\/\d+/), page.click("#pay")]);
  t.equal(await page.textContent("h1"), "Payment approved");
  t.not((await page.textContent("#receipt-order"))?.trim(), firstOrder, "a new order id");
});

t.test("a field the customer got wrong is named, tied to its field and announced; nothing typed in the card fields comes back", async (t) => {
  const { reply } = await openSession(t);
  const page = await freshPage(t);
  await page.goto(reply.redirect_url);
  await page.fill("#amount", "1");
  await fillNewCard(page, "4111 1111 1111 1112");
  await page.fill("#card_exp", "13/99");
  await Promise.all([page.waitForURL(/\/deposit/), page.click("#pay")]);
  await page.waitForSelector("#error-summary:focus");
  t.equal(await page.getAttribute("#error-summary", "role"), "alert");
  t.equal(await page.getAttribute("#card_exp", "aria-invalid"), "true");
  t.equal(await page.getAttribute("#card_number", "aria-invalid"), "true", "the number failing its check digit is named in the same round");
  t.match(await page.textContent("#error-summary"), /card number as it is on the card/);
  t.equal(await page.inputValue("#card_number"), "");
  t.notMatch(await page.content(), /4111 ?1111 ?1111 ?1112/);
  await axeClean(t, page, "deposit with errors");
  t.comment(`screenshot: ${await screenshot(page, "cashier-deposit-errors-en")}`);
  // The engine's own refusal (the amount under the minimum) comes back in the same way.
  await page.fill("#card_exp", "12/30");
  await fillNewCard(page, CARDS.approved);
  await page.fill("#amount", "1");
  await Promise.all([page.waitForURL(/\/deposit/), page.click("#pay")]);
  t.match(await page.textContent("#error-summary"), /5\.00 USD/, "the limits are named");
});

t.test("pending: the page follows the sale until it is final, with scripts and without", async (t) => {
  for (const javaScriptEnabled of [true, false]) {
    const { reply } = await openSession(t);
    const page = await freshPage(t, { javaScriptEnabled });
    await page.goto(reply.redirect_url);
    await page.fill("#amount", "10");
    await fillNewCard(page, CARDS.pending);
    // The page asks for the status every 2 s and reloads once it changes; its answers wait while axe and the
    // screenshot look at the pending page (on a loaded machine they took longer than the sale stays pending,
    // and the reload pulled the page from under axe).
    let lookedAt = () => {};
    const looking = new Promise<void>((done) => (lookedAt = done));
    await page.route("**/result/*/status", async (route) => {
      await looking;
      await route.continue();
    });
    await Promise.all([page.waitForURL(/\/result\/\d+/), page.click("#pay")]);
    t.equal(await page.textContent("h1"), "Payment in progress");
    if (javaScriptEnabled) {
      await axeClean(t, page, "pending");
      t.comment(`screenshot: ${await screenshot(page, "cashier-pending-en")}`);
    }
    lookedAt();
    await page.locator("h1", { hasText: "Payment approved" }).waitFor({ timeout: 30_000 });
    t.pass(`approved once final (scripts ${javaScriptEnabled ? "on" : "off"})`);
  }
});

t.test("3-D Secure inside the flow: the challenge, then back on the Cashier's result page", async (t) => {
  const { reply } = await openSession(t, { amount: 4200 });
  const page = await freshPage(t);
  await page.goto(reply.redirect_url);
  t.equal((await page.textContent("#fixed-amount"))?.trim(), "42.00 USD", "the session's amount is fixed");
  await fillNewCard(page, CARDS.threeDs);
  await Promise.all([page.waitForURL(/\/3ds\//), page.click("#pay")]);
  await axeClean(t, page, "challenge");
  await Promise.all([page.waitForURL(/\/cashier\/s\/.+\/result\/\d+/), page.click("#approve")]);
  t.equal(await page.textContent("h1"), "Payment approved");
  t.equal((await page.textContent("#receipt-amount"))?.trim(), "42.00 USD");
});

t.test("cascade: sim-a asks for a retry, sim-b approves; the result is the approved attempt", async (t) => {
  const { reply } = await openSession(t);
  const page = await freshPage(t);
  await page.goto(reply.redirect_url);
  await page.check("#preset-1000");
  await fillNewCard(page, CARDS.cascade);
  await Promise.all([page.waitForURL(/\/result\/\d+/), page.click("#pay")]);
  await page.locator("h1", { hasText: "Payment approved" }).waitFor({ timeout: 30_000 });
  t.pass("approved on the second processor");
});

t.test("Arabic, right to left, chosen by the session's locale; and with scripts disabled the deposit completes", async (t) => {
  const { reply } = await openSession(t, { locale: "ar" });
  const page = await freshPage(t, { javaScriptEnabled: false, locale: "de-DE" });
  await page.goto(reply.redirect_url);
  t.equal(await page.getAttribute("html", "lang"), "ar", "the session's locale wins over the browser's");
  t.equal(await page.getAttribute("html", "dir"), "rtl");
  t.equal(await page.textContent("h1"), "إيداع");
  const pay = (await page.locator("#pay").boundingBox())!;
  const label = (await page.locator("label[for=card_number]").boundingBox())!;
  t.ok(label.x + label.width > pay.x + pay.width - 4, "labels start at the right");
  // Digits a customer checks as typed read left to right inside the right-to-left page.
  for (const id of ["card_number", "card_exp", "cvv"]) t.equal(await page.getAttribute(`#${id}`, "dir"), "ltr", `${id} is left to right`);
  await page.fill("#card_number", "4111 1111 1111 1111");
  t.comment(`screenshot: ${await screenshot(page, "cashier-deposit-ar")}`);
  await page.check("#preset-5000");
  await fillNewCard(page, CARDS.approved);
  await Promise.all([page.waitForURL(/\/result\/\d+/), page.click("#pay")]);
  t.equal(await page.textContent("h1"), "تمت الموافقة على الدفع");
  t.comment(`screenshot: ${await screenshot(page, "cashier-approved-ar")}`);
  const js = await freshPage(t, { locale: "ar" });
  await js.goto(page.url());
  await axeClean(t, js, "approved in Arabic");
});

t.test("German, chosen by the browser's languages when the session names none: the form, a refusal, the receipt", async (t) => {
  const { reply } = await openSession(t);
  const page = await freshPage(t, { locale: "de-DE" });
  await page.goto(reply.redirect_url);
  t.equal(await page.getAttribute("html", "lang"), "de", "Accept-Language: de-DE");
  t.equal(await page.getAttribute("html", "dir"), "ltr");
  t.equal(await page.textContent("h1"), "Einzahlung");
  t.same(
    (await page.locator("label[for^=preset-]").allTextContents()).map((l) => l.trim()),
    ["10,00 USD", "25,00 USD", "50,00 USD"],
    "amounts written the German way, from minor units",
  );
  await page.check("#preset-1000");
  await fillNewCard(page, "4111 1111 1111 1112");
  await Promise.all([page.waitForURL(/\/deposit/), page.click("#pay")]);
  await page.waitForSelector("#error-summary:focus");
  t.match(await page.textContent("#error-summary"), /Geben Sie die Kartennummer so ein, wie sie auf der Karte steht/, "the refusal in German");
  await axeClean(t, page, "deposit with errors in German");
  t.comment(`screenshot: ${await screenshot(page, "cashier-deposit-errors-de")}`);
  await page.check("#preset-1000");
  await fillNewCard(page, CARDS.approved);
  await Promise.all([page.waitForURL(/\/result\/\d+/), page.click("#pay")]);
  t.equal(await page.textContent("h1"), "Zahlung genehmigt");
  t.equal(await page.textContent("#result-message"), "Vielen Dank, Ihre Einzahlung wurde genehmigt.");
  await axeClean(t, page, "approved in German");
  t.comment(`screenshot: ${await screenshot(page, "cashier-approved-de")}`);
});

t.test("a saved card pays again with a fresh security code", async (t) => {
  const pin = `saver-${process.pid}-${Date.now()}`;
  const first = await openSession(t, { pin });
  const page = await freshPage(t);
  await page.goto(first.reply.redirect_url);
  await page.check("#preset-1000");
  await fillNewCard(page, "5555555555554444");
  await page.check("#save_card");
  await Promise.all([page.waitForURL(/\/result\/\d+/), page.click("#pay")]);
  t.equal(await page.textContent("h1"), "Payment approved");

  const second = await openSession(t, { pin, sc_order_id: "sc-78" });
  await page.goto(second.reply.redirect_url);
  t.match(await page.textContent("label[for=card-0]"), /Mastercard ending in 4444/, "the saved card is offered first");
  t.ok(await page.isChecked("#card-0"));
  t.ok(await page.isHidden("#card_number"), "the new-card fields step aside while a saved card is chosen");
  // A number typed for a new card, then the saved card chosen after all: the hidden fields are not sent with it.
  await page.check("#card-new");
  await page.fill("#card_number", "4111111111111111");
  await page.check("#card-0");
  await page.check("#preset-1000");
  await page.fill("#saved_card_cvv", "321");
  await axeClean(t, page, "deposit with a saved card");
  t.comment(`screenshot: ${await screenshot(page, "cashier-deposit-saved-en")}`);
  await Promise.all([page.waitForURL(/\/result\/\d+/), page.click("#pay")]);
  t.equal(await page.textContent("h1"), "Payment approved");
  t.equal((await page.textContent("#receipt-card"))?.trim(), "Mastercard 555555******4444");

  // Without scripts both the saved card and the new card's fields are on the page: a number typed while the saved
  // card stays chosen is not guessed at, the customer is asked which card.
  const plain = await freshPage(t, { javaScriptEnabled: false });
  const noScript = await openSession(t, { pin, sc_order_id: "sc-78b" });
  await plain.goto(noScript.reply.redirect_url);
  t.ok(await plain.isChecked("#card-0"));
  await plain.check("#preset-1000");
  await plain.fill("#card_number", "4111111111111111");
  await plain.fill("#saved_card_cvv", "321");
  await Promise.all([plain.waitForLoadState(), plain.click("#pay")]);
  await plain.waitForSelector("#error-summary");
  t.match(await plain.textContent("#error-summary"), /You chose a saved card and also typed a new card number/);
  t.equal(await plain.locator("#card_number").inputValue(), "", "the number typed is not sent back");
  t.match(plain.url(), /\/deposit/, "no order: still the deposit form");
  t.comment(`screenshot: ${await screenshot(plain, "cashier-deposit-two-cards-en")}`);
  // axe runs as a script: it checks the very page this browser got, in one that runs scripts.
  const checker = await freshPage(t);
  await checker.setContent(await plain.content());
  t.same(await axeViolations(checker), [], "axe: the deposit form asking which card");

  // The customer removes it: the next session offers no saved card.
  const third = await openSession(t, { pin, sc_order_id: "sc-79" });
  await page.goto(third.reply.redirect_url);
  await Promise.all([page.waitForURL(/\/cards\/delete/), page.click("#remove-0")]);
  await Promise.all([page.waitForURL(/\/deposit/), page.click("#confirm-yes")]);
  t.equal(await page.locator("#card-0").count(), 0, "the card is gone");
  t.equal(await page.locator("#cards-heading").count(), 0);
});

t.test("framed by the allowed origin: the Cashier works in the frame and posts its events to exactly that origin", async (t) => {
  const { reply } = await openSession(t);
  const page = await freshPage(t);
  const src = `${reply.redirect_url}?parent=${encodeURIComponent(parent)}`;
  await page.goto(`${parent}/shop?src=${encodeURIComponent(src)}`);
  await page.waitForFunction("window.events && window.events.some((e) => e.data.type === 'cashier:resize')");
  const frame = page.frames().find((f) => f.url().startsWith(service().edgeUrl))!;
  t.equal(await frame.textContent("h1"), "Deposit");
  await frame.check("#preset-1000");
  await fillNewCard(frame as unknown as Page, CARDS.approved);
  await frame.click("#pay");
  await page.waitForFunction("window.events && window.events.some((e) => e.data.type === 'cashier:result')");
  const events = (await page.evaluate("window.events")) as { origin: string; data: Record<string, unknown> }[];
  t.same([...new Set(events.map((e) => e.origin))], [service().edgeUrl], "every event comes from the Cashier");
  const types = events.map((e) => e.data.type);
  t.ok(types.includes("cashier:loaded"));
  const result = events.find((e) => e.data.type === "cashier:result")!.data;
  t.equal(result.intent, "deposit");
  t.equal(result.transaction_status, "approved");
  t.ok(Number(result.trace_id) > 0);
  t.match(String(result.order_id), /.+/);
  // The result is shorter than the form: the frame the shop sized up for the form comes back down.
  await page.waitForFunction(
    "(() => { const i = events.findIndex((e) => e.data.type === 'cashier:result'); return events.slice(i).some((e) => e.data.type === 'cashier:resize'); })()",
  );
  const all = (await page.evaluate("window.events")) as { data: Record<string, unknown> }[];
  const at = all.findIndex((e) => e.data.type === "cashier:result");
  const heights = (list: typeof all) => list.filter((e) => e.data.type === "cashier:resize").map((e) => Number(e.data.height));
  const formHeight = Math.max(...heights(all.slice(0, at)));
  const resultHeight = heights(all.slice(at)).at(-1)!;
  t.ok(resultHeight < formHeight, `the result reports its own height (${resultHeight}), below the form's (${formHeight})`);
  t.comment(`screenshot: ${await screenshot(page, "cashier-framed-en")}`);
  // Continue leaves the frame for the whole window; held here so that the shop page (and its events) stay.
  await page.route(`${stub.url}/return**`, (route) => route.fulfill({ status: 204 }));
  await frame.click("#continue");
  await page.waitForFunction("window.events && window.events.some((e) => e.data.type === 'cashier:close')");
  t.pass("Continue posts cashier:close");
});

t.test("framed, with 3-D Secure: the challenge shows inside the same frame and the result reaches the parent", async (t) => {
  const { reply } = await openSession(t);
  const page = await freshPage(t);
  const src = `${reply.redirect_url}?parent=${encodeURIComponent(parent)}`;
  await page.goto(`${parent}/shop?src=${encodeURIComponent(src)}`);
  await page.waitForFunction("window.events && window.events.some((e) => e.data.type === 'cashier:loaded')");
  const frame = page.frames().find((f) => f !== page.mainFrame())!;
  await frame.check("#preset-2500");
  await fillNewCard(frame as unknown as Page, CARDS.threeDs);
  const loadedBefore = ((await page.evaluate("window.events")) as { data: Record<string, unknown> }[]).filter((e) => e.data.type === "cashier:loaded").length;
  await frame.click("#pay");
  await frame.waitForURL(/\/3ds\//);
  t.equal(await frame.textContent("h1"), "3-D Secure check", "the challenge is shown in the frame (its frame-ancestors are the Cashier's)");
  // The challenge is one of the Cashier's pages for the parent too: it announces itself, to exactly that origin.
  t.equal(new URL(frame.url()).searchParams.get("parent"), parent, "the challenge's address carries the declared parent");
  await page.waitForFunction(`window.events.filter((e) => e.data.type === 'cashier:loaded').length > ${loadedBefore}`);
  t.pass("the challenge page posts cashier:loaded to the parent");
  t.comment(`screenshot: ${await screenshot(page, "cashier-framed-challenge-en")}`);
  await frame.click("#approve");
  await page.waitForFunction("window.events && window.events.some((e) => e.data.type === 'cashier:result')");
  const result = ((await page.evaluate("window.events")) as { data: Record<string, unknown> }[]).find((e) => e.data.type === "cashier:result")!.data;
  t.equal(result.transaction_status, "approved");
  t.equal(await frame.textContent("h1"), "Payment approved");
});

t.test("framed by an origin not allowed: the browser refuses to show it, and the link stays usable", async (t) => {
  const { reply } = await openSession(t);
  const page = await freshPage(t);
  const refused: string[] = [];
  page.on("console", (m) => refused.push(m.text()));
  await page.goto(`${stranger}/shop?src=${encodeURIComponent(reply.redirect_url)}`);
  await page.waitForFunction("document.querySelector('iframe')");
  const frame = page.frames().find((f) => f !== page.mainFrame());
  const heading = await frame?.evaluate("document.querySelector('h1') && document.querySelector('h1').textContent").catch(() => null);
  t.not(heading, "Deposit", "no Cashier in a stranger's frame");
  // The browser said it was a frame and whose: the link was not used up where it could not be shown.
  const own = await freshPage(t);
  await own.goto(reply.redirect_url);
  t.equal(await own.textContent("h1"), "Deposit", "the same link then opens in its own window");
});

t.test("no page and no log line carries a full test card number", async (t) => {
  for (const p of pages) if (!p.isClosed()) rendered.push(await p.content().catch(() => ""));
  const text = `${rendered.join("\n")}\n${service().logs()}`;
  for (const number of [...Object.values(CARDS), "5555555555554444", "4111111111111112"]) {
    t.notOk(text.includes(number), `${number} appears nowhere`);
  }
  t.ok(rendered.length > 5, `scanned ${rendered.length} pages and the service's log`);
});
