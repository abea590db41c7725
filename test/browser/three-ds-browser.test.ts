/**
 * The 3-D Secure challenge as a customer meets it, in headless Chromium: a sale
 * with the 3-D Secure test card answers pending_async with a redirect_url; the
 * page there shows the order, approving or failing it sends the browser back to
 * the merchant's return_url, and the engine's transaction ends approved or
 * declined. Also what a customer sees on a finished, unknown or expired check.
 */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import t, { type Test } from "tap";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "../support/browser.ts";
import { TransactionStatus } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { startEdge } from "../../edge/server.ts";
import { SECRET } from "../support/merchants.ts";
import { startPlatformStub, type PlatformStub } from "../support/platform-stub.ts";
import { startService, useService, type Service } from "../support/service.ts";
import { orderId, processSale } from "../support/wire.ts";
import { movableClock } from "../support/clock.ts";

const THREE_DS_CARD = "4000000000003220";
const service = useService(t);

let browser: Browser;
let merchant: PlatformStub;
t.before(async () => {
  browser = await launchBrowser();
  merchant = await startPlatformStub({ secrets: { "m-test": SECRET } });
});
t.teardown(async () => {
  // Both, even if the first throws: a stub left listening keeps the file from ending.
  const closed = await Promise.allSettled([browser?.close(), merchant?.close()]);
  for (const c of closed) if (c.status === "rejected") throw c.reason;
});

/** A fresh browser context (no cookies, no cache) with one page; closed when the subtest ends. */
async function freshPage(t: Test): Promise<Page> {
  const context = await browser.newContext();
  context.setDefaultTimeout(10_000);
  t.teardown(() => context.close());
  return context.newPage();
}

/** Percent-encoded as a browser keeps it (Chromium writes ' in a query as %27). */
const queryValue = (s: string) => encodeURIComponent(s).replace(/'/g, "%27");

/** The merchant's return page, with a query of its own that must come back untouched. */
function returnUrlFor(order: string): string {
  return `${merchant.url}/return?order=${queryValue(order)}&lang=en`;
}

/** A signed 3-D Secure sale through POST /api/process; the customer is sent to its redirect_url. */
async function threeDsSale(t: Test, svc: Service, over: Record<string, unknown> = {}) {
  const order = (over.order_id as string | undefined) ?? orderId("3ds");
  const returnUrl = returnUrlFor(order);
  const reply = await processSale(svc.edgeUrl, { card_number: THREE_DS_CARD, order_id: order, return_url: returnUrl, ...over });
  t.equal(reply.http, 200, "the sale is accepted", { reply: reply.text });
  t.equal(reply.body.transaction_status, "pending_async", "the sale waits for the customer");
  const traceId = reply.body.trace_id as number;
  t.match(reply.body.redirect_url, new RegExp(`^${svc.edgeUrl}/3ds/${traceId}/[^/]+$`), "the redirect_url is the service's challenge page");
  return { order, returnUrl, traceId, redirectUrl: reply.body.redirect_url as string };
}

async function historyOf(svc: Service, traceId: number): Promise<TransactionStatus[]> {
  const { transaction } = await svc.client.getTransaction({ traceId });
  return transaction!.history.map((h) => h.toStatus);
}

async function postForm(url: string, body: string, contentType = "application/x-www-form-urlencoded") {
  const res = await fetch(url, { method: "POST", headers: { "content-type": contentType }, body, redirect: "manual" });
  return { http: res.status, headers: res.headers, text: await res.text() };
}

/** A port on which nothing listens: an engine that is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

t.test("approving the check sends the customer back to the merchant and approves the sale", async (t) => {
  const svc = service();
  const order = `<i>o&"'</i>-${orderId("a")}`.slice(0, 50);
  const sale = await threeDsSale(t, svc, { order_id: order, amount: 1050, currency: "USD" });
  const page = await freshPage(t);

  const res = await page.goto(sale.redirectUrl);
  t.equal(res?.status(), 200);
  const headers = res!.headers();
  t.equal(headers["content-security-policy"]?.split(";")[0], "default-src 'none'", "nothing may load from anywhere");
  t.match(headers["content-security-policy"], `form-action 'self' ${merchant.url}`, "the form may lead only here and to the merchant");
  t.equal(headers["cache-control"], "no-store");
  t.equal(headers["x-frame-options"], "DENY");
  t.equal(headers["referrer-policy"], "no-referrer");
  t.equal(await page.title(), "3-D Secure check");
  t.equal(await page.textContent("h1"), "3-D Secure check");
  t.equal(await page.textContent("#order"), sale.order, "the order id is shown as text, escaped");
  t.equal(await page.locator("main i").count(), 0, "no markup from the order id reached the page");
  t.equal(await page.textContent("#amount"), "10.50 USD", "the amount in major units");
  t.equal(await page.textContent("#card"), "400000******3220", "the card is masked");
  t.equal((await page.textContent("#approve"))?.trim(), "Approve");
  t.equal((await page.textContent("#fail"))?.trim(), "Fail");

  const shot = join(t.testdir({}), "challenge.png");
  await page.screenshot({ path: shot, fullPage: true });
  const png = readFileSync(shot);
  t.ok(png.length > 1000, "the screenshot is not empty");
  t.same([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "the screenshot is a PNG");

  const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.waitForURL(sale.returnUrl), page.click("#approve")]);
  t.equal(answer.status(), 303, "the answer redirects (303: the merchant's page is fetched with GET)");
  t.equal(answer.headers().location, sale.returnUrl, "to the return_url exactly as the merchant gave it");
  t.equal(page.url(), sale.returnUrl, "the browser is at the return_url");
  t.equal(await page.textContent("h1"), "Back at the merchant");
  t.match(await page.textContent("body"), `order=${queryValue(sale.order)}&lang=en`, "the merchant's query came back untouched");

  const { transaction } = await svc.client.getTransaction({ traceId: sale.traceId });
  t.equal(transaction!.status, TransactionStatus.APPROVED, "the sale is approved");
  t.same(await historyOf(svc, sale.traceId), [TransactionStatus.PENDING, TransactionStatus.PENDING_ASYNC, TransactionStatus.APPROVED]);

  // Back to the check (browser history, a bookmark): it is finished, with a way back to the merchant.
  const again = await page.goto(sale.redirectUrl);
  t.equal(again?.status(), 200);
  t.match(await page.textContent("h1"), /finished/i);
  t.equal(await page.locator("#approve").count(), 0, "no buttons on a finished check");
  t.equal(await page.getAttribute("#continue", "href"), sale.returnUrl);
  await Promise.all([page.waitForURL(sale.returnUrl), page.click("#continue")]);
  t.equal(await page.textContent("h1"), "Back at the merchant");

  // A second answer (another tab, a replayed form) changes nothing and shows the finished page.
  const replay = await postForm(sale.redirectUrl, "result=fail");
  t.equal(replay.http, 200);
  t.match(replay.text, /This check is finished/);
  t.equal((await svc.client.getTransaction({ traceId: sale.traceId })).transaction!.status, TransactionStatus.APPROVED, "still approved");
});

t.test("failing the check sends the customer back to the merchant and declines the sale", async (t) => {
  const svc = service();
  // BHD has three decimals and travels in whole units on the wire: 5 -> 5000 minor units.
  const sale = await threeDsSale(t, svc, { amount: 5, currency: "BHD" });
  const page = await freshPage(t);
  t.equal((await page.goto(sale.redirectUrl))?.status(), 200);
  t.equal(await page.textContent("#amount"), "5.000 BHD", "the amount with the currency's own decimals");

  await Promise.all([page.waitForURL(sale.returnUrl), page.click("#fail")]);
  t.equal(page.url(), sale.returnUrl);
  t.equal(await page.textContent("h1"), "Back at the merchant");

  const { transaction } = await svc.client.getTransaction({ traceId: sale.traceId });
  t.equal(transaction!.status, TransactionStatus.DECLINED, "the sale is declined");
  t.equal(transaction!.errorCode, 9004, "error_code 9004: the customer failed the 3-D Secure check");
  t.same(await historyOf(svc, sale.traceId), [TransactionStatus.PENDING, TransactionStatus.PENDING_ASYNC, TransactionStatus.DECLINED]);
});

t.test("a wrong address or a wrong answer gets a plain page, never a stack trace", async (t) => {
  const svc = service();
  const sale = await threeDsSale(t, svc);
  const page = await freshPage(t);
  const wrongMac = sale.redirectUrl.replace(/[^/]+$/, "0".repeat(32));

  for (const url of [
    wrongMac,
    `${svc.edgeUrl}/3ds/999999/${"a".repeat(32)}`,
    `${svc.edgeUrl}/3ds/abc/def`,
    `${svc.edgeUrl}/3ds/0/def`,
    `${svc.edgeUrl}/3ds/99999999999/def`,
  ]) {
    const res = await page.goto(url);
    t.equal(res?.status(), 404, `${url} is not found`);
    t.equal(await page.textContent("h1"), "No such check");
    t.equal(res!.headers()["content-type"], "text/html; charset=utf-8");
  }
  const wrongPost = await postForm(wrongMac, "result=approve");
  t.equal(wrongPost.http, 404, "answering with a wrong MAC is not found either");

  const bogus = await postForm(sale.redirectUrl, "result=bogus");
  t.equal(bogus.http, 400);
  t.match(bogus.text, /The field result must be approve or fail/);
  const missing = await postForm(sale.redirectUrl, "");
  t.equal(missing.http, 400, "no result at all");
  const both = await postForm(sale.redirectUrl, "result=approve&result=fail");
  t.equal(both.http, 400, "two answers at once");
  const json = await postForm(sale.redirectUrl, JSON.stringify({ result: "approve" }), "application/json");
  t.equal(json.http, 415);
  const huge = await postForm(sale.redirectUrl, `result=approve&pad=${"x".repeat(10_000)}`);
  t.equal(huge.http, 413);
  for (const r of [bogus, missing, both, json, huge]) {
    t.match(r.headers.get("content-type"), /^text\/html/);
    t.notMatch(r.text, /at .*\.ts:\d+|Error:/, "no stack trace");
  }

  // None of those touched the sale: the page still asks.
  t.equal((await svc.client.getTransaction({ traceId: sale.traceId })).transaction!.status, TransactionStatus.PENDING_ASYNC);
  t.equal((await page.goto(sale.redirectUrl))?.status(), 200);
  t.equal(await page.locator("#approve").count(), 1);
});

t.test("an edge whose engine is down answers 503 with a page", async (t) => {
  const silent = { error() {}, info() {} };
  const edge = await startEdge({ port: 0, host: "127.0.0.1", engineUrl: `http://127.0.0.1:${await closedPort()}`, token: "unused", log: silent });
  t.teardown(() => edge.close());
  const page = await freshPage(t);
  const res = await page.goto(`http://127.0.0.1:${edge.port}/3ds/1/${"a".repeat(32)}`);
  t.equal(res?.status(), 503);
  t.equal(await page.textContent("h1"), "Temporarily unavailable");
});

t.test("a check left open past CASHIER_CHALLENGE_TTL_SECONDS expires and declines the sale", async (t) => {
  // A minute's TTL, however slow the machine; then the service's clock moves past it: no sleep.
  const clock = movableClock();
  const svc = await startService({ CASHIER_CHALLENGE_TTL_SECONDS: "60" }, { now: clock.now });
  t.teardown(() => svc.stop());
  const sale = await threeDsSale(t, svc);
  const page = await freshPage(t);
  t.equal((await page.goto(sale.redirectUrl))?.status(), 200, "open at first");

  clock.advance(61_000);
  // The customer comes back to the tab and clicks Approve too late.
  const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), page.click("#approve")]);
  t.equal(answer.status(), 410, "too late to answer");
  t.equal(await page.textContent("h1"), "This check has expired");
  t.equal(await page.getAttribute("#continue", "href"), sale.returnUrl);

  const res = await page.goto(sale.redirectUrl);
  t.equal(res?.status(), 410, "the check stays expired");
  t.equal(await page.textContent("h1"), "This check has expired");

  const { transaction } = await svc.client.getTransaction({ traceId: sale.traceId });
  t.equal(transaction!.status, TransactionStatus.DECLINED, "the abandoned sale is declined");
  t.equal(transaction!.errorCode, 9005, "error_code 9005: the check was abandoned and expired");
  t.same(await historyOf(svc, sale.traceId), [TransactionStatus.PENDING, TransactionStatus.PENDING_ASYNC, TransactionStatus.DECLINED]);
});
