/**
 * The deposit form sent more than once, in Chromium against the running
 * service: with scripts off (the guarantee is the server's), the form posted,
 * then the very same request sent again (a browser's retry, a reload of the
 * POST) and twice more at once: every answer leads to the first order's
 * result page, and the platform stub saw one Validation. A fresh rendering
 * carries a fresh key, so "Try another card" makes a new order. With scripts
 * on, Pay pressed again while the form is on its way is ignored.
 */
import t, { type Test } from "tap";
import type { Browser, BrowserContextOptions, Page, Request } from "playwright-core";
import { axeViolations, launchBrowser, screenshot } from "../support/browser.ts";
import { cashierMerchants, sessionBody, startSession, SECRET } from "../support/cashier.ts";
import { startPlatformStub, type PlatformStub } from "../support/platform-stub.ts";
import { useService } from "../support/service.ts";

let browser: Browser;
let stub: PlatformStub;

t.before(async () => {
  browser = await launchBrowser();
  stub = await startPlatformStub({ secrets: { "m-cash": SECRET, "m-cash-manual": SECRET } });
});

const service = useService(t, { CASHIER_CALLBACK_ALLOW_PRIVATE: "1", CASHIER_WORKER_POLL_MS: "100" }, () => ({
  merchants: cashierMerchants(stub.url, "http://localhost:1"),
}));

t.teardown(async () => {
  await browser?.close();
  await stub?.close();
});

async function freshPage(t: Test, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 520, height: 900 }, ...options });
  context.setDefaultTimeout(20_000);
  t.teardown(() => context.close());
  return context.newPage();
}

/** A new session's deposit page, opened through its autologin link. */
async function depositPage(t: Test, options: BrowserContextOptions = {}): Promise<Page> {
  const reply = await startSession(service().edgeUrl, sessionBody({ return_url: `${stub.url}/return` }));
  t.equal(reply.http, 200, "the session starts");
  const page = await freshPage(t, options);
  await page.goto(reply.body.redirect_url as string);
  await page.locator("h1", { hasText: "Deposit" }).waitFor();
  return page;
}

async function fillNewCard(page: Page, number: string): Promise<void> {
  await page.check("#preset-1000");
  await page.fill("#card_number", number);
  await page.fill("#card_exp", "12/30");
  await page.fill("#cvv", "123");
  await page.fill("#holder", "Jane Doe");
}

/** What the result page says about its transaction (its cashier:result event's data). */
async function resultOf(page: Page): Promise<{ trace_id: number; order_id: string; transaction_status: string }> {
  return JSON.parse((await page.getAttribute("[data-cashier-result]", "data-cashier-result")) ?? "{}");
}

const validationsOf = (orderId: string) => stub.received("validation").filter((c) => (c.body as Record<string, unknown>).order_id === orderId);

t.test("scripts off: the same form posted again, and twice more at once, leads to the first order's result; one Validation", async (t) => {
  const page = await depositPage(t, { javaScriptEnabled: false });
  const key = await page.getAttribute("input[name=submission_key]", "value");
  t.match(key, /^[A-Za-z0-9_-]{22}$/, "the form carries a one-time key");
  await fillNewCard(page, "4111111111111111");
  const [post] = await Promise.all([
    page.waitForRequest((r: Request) => r.method() === "POST" && r.url().includes("/deposit")),
    page.waitForURL(/\/result\/\d+/),
    page.click("#pay"),
  ]);
  t.equal(await page.textContent("h1"), "Payment approved");
  const first = await resultOf(page);
  t.equal(first.transaction_status, "approved");

  // The very request the browser sent, sent again as a browser's retry or a reload of the POST would.
  const fields = Object.fromEntries(new URLSearchParams(post.postData() ?? ""));
  t.equal(fields.submission_key, key);
  const resend = () => page.request.post(post.url(), { form: fields, maxRedirects: 0 });
  const again = await resend();
  t.equal(again.status(), 303, "answered with the way to a result, not a second payment");
  t.match(again.headers().location, new RegExp(`/result/${first.trace_id}(\\?|$)`), "the first order's result");
  const together = await Promise.all([resend(), resend()]);
  t.same(
    together.map((r) => [r.status(), new URL(r.headers().location, service().edgeUrl).pathname.split("/").pop()]),
    [
      [303, String(first.trace_id)],
      [303, String(first.trace_id)],
    ],
  );
  await page.goto(new URL(again.headers().location, service().edgeUrl).toString());
  t.equal(await page.textContent("h1"), "Payment approved");
  t.same(await resultOf(page), first, "the page shows the same order");
  t.equal(validationsOf(first.order_id).length, 1, "the platform was asked once");

  // A new rendering of the form (the way "Try another card" goes) has a new key and makes a new order.
  await page.goto(post.url());
  const fresh = await page.getAttribute("input[name=submission_key]", "value");
  t.not(fresh, key, "a fresh form has a fresh key");
  await fillNewCard(page, "4111111111111111");
  await Promise.all([page.waitForURL(/\/result\/\d+/), page.click("#pay")]);
  const second = await resultOf(page);
  t.not(second.order_id, first.order_id, "a new order");
  t.equal(validationsOf(second.order_id).length, 1);
});

t.test(
  "a form shown again with its mistakes keeps its key: mended, it is one order; sent again emptied (a page brought back whose card the script cleared), it leads to that order",
  async (t) => {
    const page = await depositPage(t, { javaScriptEnabled: false });
    const key = await page.getAttribute("input[name=submission_key]", "value");
    await fillNewCard(page, "4111111111111111");
    await page.fill("#card_exp", "13/99");
    await Promise.all([page.waitForURL(/\/deposit/), page.click("#pay")]);
    await page.locator("#error-summary").waitFor();
    t.equal(await page.getAttribute("input[name=submission_key]", "value"), key, "the form with its mistakes keeps its key");
    await fillNewCard(page, "4111111111111111");
    const [post] = await Promise.all([
      page.waitForRequest((r: Request) => r.method() === "POST" && r.url().includes("/deposit")),
      page.waitForURL(/\/result\/\d+/),
      page.click("#pay"),
    ]);
    const paid = await resultOf(page);
    t.equal(paid.transaction_status, "approved");

    const sent = Object.fromEntries(new URLSearchParams(post.postData() ?? ""));
    const emptied = { ...sent, card_number: "", card_exp: "", cvv: "" };
    const refused = await page.request.post(post.url(), { form: emptied, maxRedirects: 0 });
    t.equal(refused.status(), 400, "the emptied card is named");
    t.match(await refused.text(), new RegExp(`name="submission_key" value="${key}"`), "and the page keeps the key");
    const retyped = await page.request.post(post.url(), { form: sent, maxRedirects: 0 });
    t.equal(retyped.status(), 303);
    t.match(retyped.headers().location, new RegExp(`/result/${paid.trace_id}(\\?|$)`), "typed again, it leads to the order it made");
    t.equal(validationsOf(paid.order_id).length, 1, "one Validation, one charge");
  },
);

t.test("scripts off, 3-D Secure: the form sent again leads to the same open check; its result page links to it", async (t) => {
  const page = await depositPage(t, { javaScriptEnabled: false });
  await fillNewCard(page, "4000000000003220");
  const [post] = await Promise.all([
    page.waitForRequest((r: Request) => r.method() === "POST" && r.url().includes("/deposit")),
    page.waitForURL(/\/3ds\/\d+\//),
    page.click("#pay"),
  ]);
  const check = page.url();
  const again = await page.request.post(post.url(), { form: Object.fromEntries(new URLSearchParams(post.postData() ?? "")), maxRedirects: 0 });
  t.equal(again.status(), 303);
  const traceId = new URL(check).pathname.split("/").at(-2);
  // The deposit form's answer leads to the way to the check (challenge/<trace_id>), which goes on to the check itself.
  t.match(again.headers().location, new RegExp(`/cashier/s/[^/]+/challenge/${traceId}$`), "the same check, not a new payment");
  await page.goto(new URL(`result/${traceId}`, post.url().replace(/deposit(\?.*)?$/, "")).toString());
  t.equal(await page.textContent("h1"), "Payment in progress");
  t.equal(await page.getAttribute("#challenge", "href"), check, "the result page links to the open check");
  t.comment(`screenshot: ${await screenshot(page, "cashier-pending-challenge-en")}`);
  const orderId = (await resultOf(page)).order_id;
  t.equal(validationsOf(orderId).length, 1, "the platform was asked once");
});

t.test("scripts on: Pay pressed again while the form is on its way is ignored and the button says it is busy", async (t) => {
  const page = await depositPage(t);
  await fillNewCard(page, "4111111111111111");
  let posts = 0;
  page.on("request", (r) => {
    if (r.method() === "POST") posts += 1;
  });
  const arrived = page.waitForURL(/\/result\/\d+/);
  // Two presses before the answer, as a double click makes them; a listener after the page's own sees what became of each.
  const seen = (await page.evaluate(`(() => {
    const pay = document.querySelector("#pay");
    const prevented = [];
    pay.form.addEventListener("submit", (e) => prevented.push(e.defaultPrevented));
    pay.click();
    const busy = pay.getAttribute("aria-disabled");
    pay.click();
    return { busy, prevented };
  })()`)) as { busy: string | null; prevented: boolean[] };
  t.same(seen, { busy: "true", prevented: [false, true] }, "the first press sends the form, the second is ignored, the button says it is busy");
  await arrived;
  t.equal(await page.textContent("h1"), "Payment approved");
  t.equal(posts, 1, "one POST left the browser");
  const shown = await resultOf(page);
  t.equal(validationsOf(shown.order_id).length, 1);
  t.same(await axeViolations(page), [], "axe: the result page");
});

t.test("Back after paying: a fresh form that says what the session paid, its card fields empty (scripts on); off, the notice alone", async (t) => {
  for (const javaScriptEnabled of [true, false]) {
    const page = await depositPage(t, { javaScriptEnabled });
    const failed: string[] = [];
    page.on("response", (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    page.on("console", (m) => {
      if (m.type() === "error") failed.push(m.text());
    });
    t.equal(await page.locator("#last-deposit").count(), 0, "a session that paid nothing says nothing of it");
    await fillNewCard(page, "4111111111111111");
    await Promise.all([page.waitForURL(/\/result\/\d+/), page.click("#pay")]);
    const paid = await resultOf(page);
    await page.goBack();
    await page.locator("#last-deposit").waitFor();
    t.equal(
      (await page.textContent("#last-deposit"))?.replace(/\s+/g, " ").trim(),
      "Your last payment in this session: 10.00 USD, approved. See it",
      `scripts ${javaScriptEnabled ? "on" : "off"}: the page brought back says the session paid already`,
    );
    t.match(await page.getAttribute("#last-deposit a", "href"), new RegExp(`/result/${paid.trace_id}$`), "and links to that payment");
    if (javaScriptEnabled) {
      // The page's pageshow handler runs once the page has loaded; the CSP allows no evaluated predicate.
      await page.waitForLoadState("load");
      t.same(
        [await page.inputValue("#card_number"), await page.inputValue("#card_exp")],
        ["", ""],
        "the card fields the browser put back are cleared: no card number on screen",
      );
      t.same(await axeViolations(page), [], "axe: the deposit page with the session's last payment");
      t.comment(`screenshot: ${await screenshot(page, "cashier-deposit-after-back-en")}`);
    }
    t.equal(validationsOf(paid.order_id).length, 1);
    t.same(failed, [], "no request failed and nothing was logged as an error");
  }
});
