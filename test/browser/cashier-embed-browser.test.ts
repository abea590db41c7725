/**
 * The embed script (CONTRACT 12) in Chromium, driven as a platform's developer
 * uses it: a shop page on a second origin (one of the frontend's
 * allowed_origins) loads /cashier.js from the edge with Subresource
 * Integrity and frames a session with Cashier.open. The frame follows the
 * Cashier's height; an approved deposit reaches onEvent as cashier:result; a
 * declined card and a form's errors as cashier:error; a session that ends
 * while shown as cashier:expired, and again when a form is sent after its end;
 * close() removes the frame. Cashier.fields resolves with the card token (the
 * fields' own errors heard, not rejecting) and rejects when its session ends.
 * Messages from another origin, from the shop's own window or from another
 * Cashier frame never reach a handle's onEvent; a frame refused by
 * allowed_origins is reported as frame_not_loaded, and the fields' promise
 * rejects with that code.
 */
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import t, { type Test } from "tap";
import type { Browser, Frame, Page } from "playwright-core";
import { launchBrowser, screenshot } from "../support/browser.ts";
import { cashierMerchants, SECRET, sessionBody, startSession } from "../support/cashier.ts";
import { movableClock } from "../support/clock.ts";
import { fieldsMerchants, fieldsSessionBody } from "../support/hosted-fields.ts";
import { startPlatformStub, type PlatformStub } from "../support/platform-stub.ts";
import { useService } from "../support/service.ts";

const APPROVED = "4111111111111111";
const DECLINED = "4000000000000002";
const TTL = 900;

interface Seen {
  type: string;
  [member: string]: unknown;
}

let browser: Browser;
let stub: PlatformStub;
let shop: string;
let stranger: string;
let integrity = "";
const servers: Server[] = [];
const clock = movableClock();

const listen = async (server: Server): Promise<string> => {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return String((server.address() as AddressInfo).port);
};

/**
 * The platform's page: /cashier.js pinned by its hash; `start(name, options)` opens a frame (or the fields) whose
 * events go to `events[name]`; `raw` records every message the window gets, to know a forged one arrived.
 */
const shopHtml = (edgeUrl: string) => `<!doctype html><html lang="en"><head><title>Shop</title>
<script src="${edgeUrl}/cashier.js" integrity="${integrity}" crossorigin="anonymous"></script></head>
<body><h1>Shop</h1><div id="pay"></div><div id="pay2"></div><div id="forge"></div>
<script>
window.events = {}; window.handles = {}; window.raw = [];
addEventListener("message", (e) => raw.push({ origin: e.origin, data: e.data }));
window.start = (name, options) => {
  const list = (events[name] = []);
  handles[name] = Cashier.open(Object.assign({ onEvent: (e) => list.push(e) }, options));
  return handles[name].frame.tagName;
};
window.startFields = (name, options) => {
  const list = (events[name] = []);
  const p = Cashier.fields(Object.assign({ onEvent: (e) => list.push(e) }, options));
  handles[name] = p;
  return p.then((v) => ({ ok: v }), (err) => ({ code: err.code, message: err.message }));
};
</script></body></html>`;

/** A page of another site that posts a forged result to whoever frames it. */
const FORGER = `<!doctype html><html lang="en"><head><title>Forger</title></head><body><script>
parent.postMessage({ type: "cashier:result", intent: "deposit", trace_id: 1, order_id: "forged", transaction_status: "approved" }, "*");
</script></body></html>`;

t.before(async () => {
  browser = await launchBrowser();
  stub = await startPlatformStub({ secrets: { "m-cash": SECRET, "m-cash-manual": SECRET } });
  const page = (req: { url?: string }, res: import("node:http").ServerResponse) => {
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end(new URL(req.url ?? "/", "http://x").pathname === "/forge" ? FORGER : shopHtml(service().edgeUrl));
  };
  shop = `http://localhost:${await listen(createServer(page))}`;
  stranger = `http://127.0.0.1:${await listen(createServer(page))}`;
});

const service = useService(t, { CASHIER_CALLBACK_ALLOW_PRIVATE: "1", CASHIER_WORKER_POLL_MS: "100", CASHIER_SESSION_TTL_SECONDS: String(TTL) }, () => ({
  merchants: { merchants: [...cashierMerchants(stub.url, shop).merchants, ...fieldsMerchants(stub.url, shop).merchants] },
  now: clock.now,
}));

t.teardown(async () => {
  await browser?.close();
  await stub?.close();
  for (const s of servers) s.close();
});

async function shopPage(t: Test, origin = shop): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 520, height: 900 } });
  context.setDefaultTimeout(30_000);
  t.teardown(() => context.close());
  const page = await context.newPage();
  await page.goto(`${origin}/shop`);
  return page;
}

/** A deposit session's autologin address, started on the engine's clock. */
async function session(t: Test): Promise<string> {
  const reply = await startSession(service().edgeUrl, sessionBody({ return_url: `${stub.url}/return`, timestamp: Math.floor(clock.now().getTime() / 1000) }));
  t.equal(reply.http, 200, "the session starts", { reply: reply.body });
  return reply.body.redirect_url as string;
}

/** A hosted fields session's autologin address (intent fields), started on the engine's clock. */
async function fieldsSession(t: Test, pin: string): Promise<string> {
  const reply = await startSession(service().edgeUrl, fieldsSessionBody({ pin }, clock.now().getTime()));
  t.equal(reply.http, 200, "the fields session starts", { reply: reply.body });
  return reply.body.redirect_url as string;
}

const eventsOf = async (page: Page, name: string): Promise<Seen[]> => (await page.evaluate(`window.events[${JSON.stringify(name)}]`)) as Seen[];
const waitFor = (page: Page, name: string, type: string, count = 1) =>
  page.waitForFunction(`(window.events[${JSON.stringify(name)}] || []).filter((e) => e.type === ${JSON.stringify(type)}).length >= ${count}`);
const cashierFrame = (page: Page): Frame => page.frames().find((f) => f.url().startsWith(service().edgeUrl))!;

async function pay(frame: Frame, number: string): Promise<void> {
  await frame.check("#preset-1000");
  if (await frame.locator("#card-new").count()) await frame.check("#card-new");
  await frame.fill("#card_number", number);
  await frame.fill("#card_exp", "12/30");
  await frame.fill("#cvv", "123");
  await frame.fill("#holder", "Jane Doe");
  await frame.click("#pay");
}

t.test("/cashier.js: the script, its integrity hash in a header, CORS for Subresource Integrity, an hour's cache", async (t) => {
  const res = await fetch(`${service().edgeUrl}/cashier.js`);
  t.equal(res.status, 200);
  t.equal(res.headers.get("content-type"), "application/javascript; charset=utf-8");
  t.equal(res.headers.get("cache-control"), "public, max-age=3600");
  t.equal(res.headers.get("access-control-allow-origin"), "*");
  const body = Buffer.from(await res.arrayBuffer());
  integrity = `sha384-${createHash("sha384").update(body).digest("base64")}`;
  t.equal(res.headers.get("cashier-script-integrity"), integrity, "the header names the body's SHA-384");
  t.match(body.toString(), /window\.Cashier = Object\.freeze/);
  const again = await fetch(`${service().edgeUrl}/cashier.js`, { headers: { "if-none-match": res.headers.get("etag") ?? "" } });
  t.equal(again.status, 304, "a browser holding it asks with its ETag and gets 304");
});

t.test("open, resize, result, close: a deposit approved in the frame reaches onEvent", async (t) => {
  const page = await shopPage(t);
  const url = await session(t);
  t.equal(await page.evaluate(`start("a", { url: ${JSON.stringify(url)}, container: "#pay" })`), "IFRAME", "open returns the frame");
  await waitFor(page, "a", "cashier:resize");
  const frame = cashierFrame(page);
  t.equal(new URL(frame.url()).searchParams.get("parent"), shop, "the script declared this page's origin as the parent");
  t.equal(await frame.textContent("h1"), "Deposit");
  // The frame takes the height the Cashier reports, whatever it was a moment ago.
  const sized = (await page.evaluate(
    `(() => { const r = events.a.filter((e) => e.type === "cashier:resize").at(-1); return [r.height, document.querySelector("#pay iframe").style.height]; })()`,
  )) as [number, string];
  t.equal(sized[1], `${sized[0]}px`, `the frame is ${sized[0]} px high, as the Cashier asked`);
  t.ok(sized[0] > 300, "the deposit form's own height");

  await pay(frame, APPROVED);
  await waitFor(page, "a", "cashier:result");
  const events = await eventsOf(page, "a");
  const types = events.map((e) => e.type);
  t.ok(types.indexOf("cashier:submitted") > -1 && types.indexOf("cashier:submitted") < types.indexOf("cashier:result"), "cashier:submitted came first");
  const result = events.find((e) => e.type === "cashier:result")!;
  t.same(Object.keys(result).sort(), ["intent", "order_id", "trace_id", "transaction_status", "type"]);
  t.equal(result.intent, "deposit");
  t.equal(result.transaction_status, "approved");
  t.ok(Number(result.trace_id) > 0, "trace_id");
  t.match(String(result.order_id), /.+/, "order_id");
  t.notOk(types.includes("cashier:error"), "no error for an approval");
  // The result is shorter than the form: the frame follows it down.
  await page.waitForFunction(`document.querySelector("#pay iframe").style.height !== "${sized[1]}"`);
  t.comment(`screenshot: ${await screenshot(page, "cashier-embed-approved")}`);

  await page.evaluate(`handles.a.close()`);
  t.equal(await page.locator("#pay iframe").count(), 0, "close() removes the frame");
});

t.test("error: a form's errors and a declined card reach onEvent as cashier:error", async (t) => {
  const page = await shopPage(t);
  await page.evaluate(`start("e", { url: ${JSON.stringify(await session(t))}, container: document.getElementById("pay") })`);
  await waitFor(page, "e", "cashier:loaded");
  const frame = cashierFrame(page);
  await frame.check("#preset-1000");
  await frame.click("#pay");
  await waitFor(page, "e", "cashier:error");
  const fieldError = (await eventsOf(page, "e")).find((e) => e.type === "cashier:error")!;
  t.equal(fieldError.code, "invalid_fields");
  t.ok((fieldError.fields as string[]).includes("card_number"), "the card number is named");
  t.match(String(fieldError.message), /card number/i, "in the customer's words");

  await pay(frame, DECLINED);
  await waitFor(page, "e", "cashier:error", 2);
  const declined = (await eventsOf(page, "e")).filter((e) => e.type === "cashier:error")[1];
  t.equal(declined.code, "declined");
  t.equal(declined.message, await frame.textContent("#result-message"), "the reason the customer reads");
  t.ok(Number(declined.error_code) > 0, "the decline's error_code");
  const result = (await eventsOf(page, "e")).find((e) => e.type === "cashier:result")!;
  t.equal(result.transaction_status, "declined", "and the result as before");
});

t.test("only the handle's own frame is heard: not another origin, not the shop's window, not another Cashier frame", async (t) => {
  const page = await shopPage(t);
  await page.evaluate(`start("a", { url: ${JSON.stringify(await session(t))}, container: "#pay" })`);
  await waitFor(page, "a", "cashier:loaded");
  await page.evaluate(`start("b", { url: ${JSON.stringify(await session(t))}, container: "#pay2" })`);
  await waitFor(page, "b", "cashier:loaded");
  // Another site's frame and the shop's own window post a result as the Cashier would.
  await page.evaluate(`(() => {
    const f = document.createElement("iframe"); f.src = ${JSON.stringify(`${stranger}/forge`)}; document.getElementById("forge").appendChild(f);
    postMessage({ type: "cashier:result", intent: "deposit", trace_id: 2, order_id: "self-forged", transaction_status: "approved" }, "*");
  })()`);
  await page.waitForFunction(`raw.filter((m) => m.data && /forged/.test(m.data.order_id)).length === 2`);
  const raw = (await page.evaluate("raw")) as { origin: string; data: Seen }[];
  t.same(
    raw
      .filter((m) => /forged/.test(String(m.data?.order_id)))
      .map((m) => m.origin)
      .sort(),
    [shop, stranger].sort(),
    "both forgeries arrived",
  );
  const a = await eventsOf(page, "a");
  const b = await eventsOf(page, "b");
  t.notOk(
    [...a, ...b].some((e) => e.type === "cashier:result"),
    "neither reached onEvent",
  );
  t.equal(raw.filter((m) => m.data?.type === "cashier:loaded" && m.origin === service().edgeUrl).length, 2, "both Cashier frames said loaded");
  t.equal(a.filter((e) => e.type === "cashier:loaded").length, 1, "the first handle heard only its own frame");
  t.equal(b.filter((e) => e.type === "cashier:loaded").length, 1, "the second too");
});

t.test("fields: the promise resolves with the card token, after the fields' own errors", async (t) => {
  const page = await shopPage(t);
  const url = await fieldsSession(t, "cust-embed-fields");
  await page.evaluate(`void (window.fieldsOutcome = startFields("f", { url: ${JSON.stringify(url)}, container: "#pay" }))`);
  await waitFor(page, "f", "cashier:loaded");
  const frame = cashierFrame(page);
  await frame.fill("#card_number", "4111111111111112");
  await frame.fill("#card_exp", "12/30");
  await frame.fill("#cvv", "123");
  await frame.fill("#holder", "Jane Doe");
  await frame.click("#use-card");
  await waitFor(page, "f", "cashier:error");
  t.equal((await eventsOf(page, "f")).find((e) => e.type === "cashier:error")!.code, "invalid_fields", "a number that fails: heard, not a rejection");
  // The page gives no card field back: the customer types the card again.
  await frame.fill("#card_number", APPROVED);
  await frame.fill("#card_exp", "12/30");
  await frame.fill("#cvv", "123");
  await frame.click("#use-card");
  const outcome = (await page.evaluate("window.fieldsOutcome")) as { ok?: Record<string, string> };
  t.ok(outcome.ok, "resolved", { outcome });
  t.same(Object.keys(outcome.ok ?? {}).sort(), ["brand", "card_token", "expiry", "masked"]);
  t.ok(outcome.ok!.card_token.length > 0 && outcome.ok!.card_token.length <= 64, "a card token of at most 64 characters");
  t.equal(outcome.ok!.masked, "411111******1111");
  t.notMatch(JSON.stringify(await eventsOf(page, "f")), APPROVED, "no card number in any event");
});

t.test("a frame refused by allowed_origins is reported: frame_not_loaded, and the fields' promise rejects with it", async (t) => {
  const page = await shopPage(t, stranger);
  await page.evaluate(`start("r", { url: ${JSON.stringify(await session(t))}, container: "#pay", loadTimeout: 3000 })`);
  await waitFor(page, "r", "cashier:error");
  const error = (await eventsOf(page, "r")).find((e) => e.type === "cashier:error")!;
  t.equal(error.code, "frame_not_loaded");
  t.match(String(error.message), /allowed_origins/);
  const fields = (await page.evaluate(`startFields("f", { url: ${JSON.stringify(await session(t))}, container: "#pay2", loadTimeout: 2000 })`)) as Record<
    string,
    unknown
  >;
  t.equal(fields.code, "frame_not_loaded", "Cashier.fields rejects");
});

t.test("expired: the session's end while shown, and a form sent after it, reach onEvent as cashier:expired", async (t) => {
  // The session is started on a clock set back so that it has a few seconds left now.
  clock.advance(-(TTL - 8) * 1000);
  const url = await session(t);
  const fieldsUrl = await fieldsSession(t, "cust-embed-expiring");
  const page = await shopPage(t);
  await page.evaluate(`start("x", { url: ${JSON.stringify(url)}, container: "#pay" })`);
  await page.evaluate(`void (window.fieldsOutcome = startFields("xf", { url: ${JSON.stringify(fieldsUrl)}, container: "#pay2" }))`);
  await waitFor(page, "x", "cashier:loaded");
  const frame = cashierFrame(page);
  await waitFor(page, "x", "cashier:expired");
  t.pass("the page said so when its time passed");
  t.same(
    await page.evaluate("window.fieldsOutcome"),
    { code: "expired", message: "The card fields' session ended before a card was sent." },
    "the fields' promise rejects",
  );
  // The engine's clock reaches the session's end too; the customer sends the form all the same.
  clock.advance(TTL * 1000);
  await pay(frame, APPROVED);
  await waitFor(page, "x", "cashier:expired", 2);
  t.equal(await frame.textContent("h1"), "Your session has ended", "the frame shows the ended page");
  const types = (await eventsOf(page, "x")).map((e) => e.type);
  t.ok(types.includes("cashier:submitted"));
  t.notOk(types.includes("cashier:result"), "no payment was made");
});
