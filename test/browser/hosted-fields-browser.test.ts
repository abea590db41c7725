/**
 * The hosted payment fields (CONTRACT 12) in Chromium, as a platform's page
 * on a second origin frames them: the shop's page (a small local server on
 * another port, one of the frontend's allowed_origins) frames the session's
 * redirect_url and listens for messages. A card typed in reaches the shop as
 * cashier:card_token from the Cashier's origin, whose token the platform then
 * pays with; a bad card shows its errors in the frame and reaches the shop as
 * cashier:error; a page told another allowed parent posts nothing to this one
 * (the target is that exact origin, never "*"); Cashier.fields of /cashier.js
 * resolves with the token. The page itself: axe clean, keyboard only, at
 * 375 px, in Arabic right to left.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import t, { type Test } from "tap";
import type { Browser, Frame, Page } from "playwright-core";
import { axeClean, focusableControls, keyboardWalk, launchBrowser, screenshot } from "../support/browser.ts";
import { fieldsMerchants, fieldsSessionBody, postJson } from "../support/hosted-fields.ts";
import { useService } from "../support/service.ts";
import { orderId, sign } from "../support/wire.ts";

interface Seen {
  origin: string;
  data: { type: string; [member: string]: unknown };
}

let browser: Browser;
let shop: string;
let other: string;
const servers: Server[] = [];

const listen = async (server: Server): Promise<string> => {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return String((server.address() as AddressInfo).port);
};

/** The platform's checkout page: `frame(url)` frames the fields by hand; every message is kept with its origin. */
const shopHtml = (edgeUrl: string) => `<!doctype html><html lang="en"><head><title>Checkout</title>
<script src="${edgeUrl}/cashier.js"></script></head>
<body><h1>Checkout</h1><div id="card"></div>
<script>
window.seen = [];
addEventListener("message", (e) => seen.push({ origin: e.origin, data: e.data }));
window.frameFields = (url) => {
  const f = document.createElement("iframe");
  f.src = url; f.title = "Card"; f.style.width = "100%"; f.style.height = "640px";
  document.getElementById("card").appendChild(f);
};
window.viaScript = (url) => Cashier.fields({ url, container: "#card" }).then((v) => ({ ok: { card_token: v.card_token, brand: v.brand, masked: v.masked, expiry: v.expiry } }), (err) => ({ code: err.code }));
</script></body></html>`;

t.before(async () => {
  browser = await launchBrowser();
  const page = (_req: unknown, res: import("node:http").ServerResponse) => {
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end(shopHtml(service().edgeUrl));
  };
  shop = `http://localhost:${await listen(createServer(page))}`;
  other = `http://localhost:${await listen(createServer(page))}`;
});

const service = useService(t, { CASHIER_CALLBACK_ALLOW_PRIVATE: "1" }, () => ({ merchants: fieldsMerchants("http://127.0.0.1:9", [shop, other]) }));

t.teardown(async () => {
  await browser?.close();
  for (const s of servers) s.close();
});

async function newPage(t: Test, width = 520): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  context.setDefaultTimeout(30_000);
  t.teardown(() => context.close());
  return context.newPage();
}

async function fieldsUrl(over: Record<string, unknown> = {}): Promise<string> {
  const r = await postJson(`${service().edgeUrl}/api/session`, fieldsSessionBody(over));
  if (r.http !== 200) throw new Error(r.text);
  return r.body.redirect_url as string;
}

const edgeOrigin = () => new URL(service().edgeUrl).origin;
const seen = async (page: Page): Promise<Seen[]> => (await page.evaluate("window.seen")) as Seen[];
const waitForMessage = (page: Page, type: string) => page.waitForFunction(`window.seen.some((m) => m.data && m.data.type === ${JSON.stringify(type)})`);

async function typeCard(frame: Frame, number: string): Promise<void> {
  await frame.waitForSelector("#card_number");
  await frame.fill("#card_number", number);
  await frame.fill("#card_exp", "12/30");
  await frame.fill("#cvv", "737");
  await frame.fill("#holder", "Jane Doe");
  await frame.click("#use-card");
}

t.test("framed by the shop: the card typed in reaches the shop as cashier:card_token at its exact origin, and pays", async (t) => {
  const page = await newPage(t);
  await page.goto(`${shop}/checkout`);
  await page.evaluate(`window.frameFields(${JSON.stringify(await fieldsUrl())})`);
  await page.waitForFunction(`[...document.querySelectorAll("iframe")].length === 1`);
  const frame = await (await page.waitForSelector("iframe")).contentFrame();
  await typeCard(frame!, "4111 1111 1111 1111");
  await waitForMessage(page, "cashier:card_token");
  const [message] = (await seen(page)).filter((m) => m.data.type === "cashier:card_token");
  t.equal(message.origin, edgeOrigin(), "from the Cashier's origin");
  t.same(Object.keys(message.data).sort(), ["brand", "card_token", "expiry", "masked", "type"]);
  t.equal(message.data.masked, "411111******1111");
  t.equal(message.data.brand, "VISA");
  t.equal(message.data.expiry, "12/2030");
  const token = String(message.data.card_token);
  t.ok(token.length > 0 && token.length <= 64);
  t.match(await frame!.textContent("main"), /Card accepted/);

  // The platform's server pays with it.
  const sale = await postJson(
    `${service().edgeUrl}/api/process`,
    sign({
      merchant_id: "m-fields",
      frontend: "fields-usd",
      order_id: orderId("br"),
      transaction_type: "sale",
      amount: 1500,
      currency: "USD",
      card_token: token,
      pin: "cust-fields-1",
      email: "jane@example.com",
      first_name: "Jane",
      last_name: "Doe",
      country: "GB",
      return_url: `${shop}/done`,
      timestamp: Math.floor(Date.now() / 1000),
      version: "1.0",
    }),
  );
  t.equal(sale.body.transaction_status, "approved", sale.text);
});

t.test("a bad card: its errors in the frame, tied to the field, and cashier:error to the shop", async (t) => {
  const page = await newPage(t);
  await page.goto(`${shop}/checkout`);
  await page.evaluate(`window.frameFields(${JSON.stringify(`${await fieldsUrl()}?parent=${encodeURIComponent(shop)}`)})`);
  const frame = await (await page.waitForSelector("iframe")).contentFrame();
  await typeCard(frame!, "4111 1111 1111 1112");
  await waitForMessage(page, "cashier:error");
  const errors = (await seen(page)).filter((m) => m.data.type === "cashier:error");
  t.equal(errors.length, 1, "told once");
  t.equal(errors[0].origin, edgeOrigin());
  t.equal(errors[0].data.code, "invalid_fields");
  t.match(String(errors[0].data.message), /card number/i);
  t.equal(await frame!.getAttribute("#card_number", "aria-invalid"), "true", "the field is marked");
  t.match(await frame!.textContent("#card_number-error"), /card number/i);
  t.notOk(
    (await seen(page)).some((m) => m.data.type === "cashier:card_token"),
    "no token for a bad card",
  );
});

t.test("a page told another allowed parent posts nothing to this one: the target is that exact origin", async (t) => {
  const page = await newPage(t);
  await page.goto(`${shop}/checkout`);
  await page.evaluate(`window.frameFields(${JSON.stringify(`${await fieldsUrl()}?parent=${encodeURIComponent(other)}`)})`);
  const frame = await (await page.waitForSelector("iframe")).contentFrame();
  await typeCard(frame!, "4111 1111 1111 1111");
  await frame!.waitForSelector("#fields-card");
  // The frame's scripts have run once it has loaded; a probe it posts after them arrives after anything they posted.
  await frame!.waitForLoadState("load");
  await frame!.evaluate(`parent.postMessage({ type: "probe" }, "*")`);
  await waitForMessage(page, "probe");
  t.same(
    (await seen(page)).filter((m) => String(m.data?.type).startsWith("cashier:card")),
    [],
    "the token went to no other origin than the one declared",
  );
});

t.test("Cashier.fields of /cashier.js resolves with the card token", async (t) => {
  const page = await newPage(t);
  await page.goto(`${shop}/checkout`);
  const url = await fieldsUrl();
  const result = page.evaluate(`window.viaScript(${JSON.stringify(url)})`);
  await page.waitForFunction(`document.querySelector("iframe") !== null`);
  const frame = await (await page.waitForSelector("iframe")).contentFrame();
  await typeCard(frame!, "5555 5555 5555 4444");
  const answered = (await result) as { ok?: { card_token: string; brand: string; masked: string; expiry: string }; code?: string };
  t.equal(answered.ok?.masked, "555555******4444", JSON.stringify(answered));
  t.equal(answered.ok?.brand, "MC");
  t.ok((answered.ok?.card_token.length ?? 0) > 0);
});

t.test("the page: axe clean, keyboard only, 375 px wide, Arabic right to left", async (t) => {
  for (const [locale, dir] of [
    ["en", "ltr"],
    ["ar", "rtl"],
  ] as const) {
    const page = await newPage(t, 375);
    await page.goto(await fieldsUrl({ locale, pin: `cust-kb-${locale}` }));
    await page.waitForSelector("#card_number");
    t.equal(await page.getAttribute("html", "dir"), dir, `${locale}: ${dir}`);
    await axeClean(t, page, `the fields page (${locale})`);
    t.equal(await page.evaluate("document.documentElement.scrollWidth <= 375"), true, `${locale}: nothing wider than 375 px`);
    // Keyboard only: every control is reached by Tab, with a visible focus, and the form is sent by Enter.
    const stops = await keyboardWalk(page);
    const reached = new Set(stops.map((s) => s.element));
    for (const control of await focusableControls(page)) t.ok(reached.has(control), `${locale}: ${control} is reached by Tab`);
    t.ok(
      stops.every((s) => s.visible),
      `${locale}: focus is visible at every stop`,
    );
    // Errors first, by keyboard: Enter in the number field sends the empty form.
    await page.focus("#card_number");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#error-summary");
    await axeClean(t, page, `the fields page with errors (${locale})`);
    t.equal(await page.evaluate("document.activeElement && document.activeElement.id"), "error-summary", `${locale}: the errors take the focus`);
    await page.focus("#card_number");
    await page.keyboard.type("4111111111111111");
    await page.focus("#card_exp");
    await page.keyboard.type("12/30");
    await page.focus("#cvv");
    await page.keyboard.type("737");
    await page.focus("#holder");
    await page.keyboard.type("Jane Doe");
    await page.keyboard.press("Enter");
    await page.waitForSelector("#fields-card");
    await axeClean(t, page, `the taken card (${locale})`);
    await screenshot(page, `hosted-fields-done-${locale}-375`);
  }
});
