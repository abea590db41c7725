/**
 * The hosted Cashier's deposit in Chromium through each real connector (issue 30, points 5 and 7): a merchant whose
 * frontend routes to a Checkout.com account and one routing to an Adyen account, both at the acquirer simulator's
 * stand-ins (/checkout and /adyen/v71, a simulator of this file's own). A card the acquirer does not challenge is
 * approved at once; a challenged one takes the customer from the deposit form through Cashier's way to the bank
 * (challenge/<trace_id>) to the acquirer's own 3-D Secure page, in a tab or inside the platform's frame, and back to
 * Cashier's result: approved when they pass, declined with Cashier's 3-D Secure reason (9004) when they fail, which
 * the customer reads with a way to try again. The platform's frame gets its events from Cashier's origin only; the
 * acquirer's ledger holds one payment per deposit; Cashier's pages pass axe, work by keyboard, at 375 px and with
 * scripts off. Screenshots (CASHIER_SCREENSHOT_DIR) feed docs/cashier.md's "3-D Secure at the acquirer".
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import t, { type Test } from "tap";
import type { Browser, BrowserContextOptions, Frame, Page } from "playwright-core";
import { TransactionStatus } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { ADYEN, CHANNEL, CKO, type DialectSim, startDialectSim } from "../support/acquirer-sim-dialects.ts";
import { axeViolations, keyboardWalk, launchBrowser, screenshot } from "../support/browser.ts";
import { SECRET, sessionBody, startSession } from "../support/cashier.ts";
import { startPlatformStub, type PlatformStub } from "../support/platform-stub.ts";
import { useService } from "../support/service.ts";
import { replySigned } from "../support/wire.ts";

/** One acquirer as a merchant of this file reaches it, and the stand-in's test cards. */
interface Acquirer {
  /** Short name, in test and screenshot names. */
  key: "checkout" | "adyen";
  merchant: string;
  frontend: string;
  currency: string;
  account: string;
  /** Approved without a challenge. */
  frictionless: string;
  /** Sent to the acquirer's 3-D Secure page (the acquirer's own test cards). */
  challenged: string;
  /** The ledger's entry kind of a payment at this acquirer. */
  ledgerKind: string;
}

const ACQUIRERS: readonly Acquirer[] = [
  {
    key: "checkout",
    merchant: "m-cko",
    frontend: "cko-usd",
    currency: "USD",
    account: "cko-main",
    frictionless: "4242424242424242",
    challenged: "4010061700000021",
    ledgerKind: "cko.payment",
  },
  {
    key: "adyen",
    merchant: "m-adyen",
    frontend: "adyen-eur",
    currency: "EUR",
    account: "adyen-eu",
    frictionless: "4111111111111111",
    challenged: "4917610000000000",
    ledgerKind: "adyen.payment",
  },
];

let browser: Browser;
let stub: PlatformStub;
let acquirer: DialectSim;
let parent: string;
const servers: Server[] = [];

/** The platform's page framing the Cashier (375 px wide, as on a phone) at ?src=, recording every message it gets. */
const shopPage = (src: string) => `<!doctype html><html lang="en"><head><title>Shop</title></head><body><h1>Shop</h1>
<script>window.events = []; addEventListener("message", (e) => {
  events.push({ origin: e.origin, data: e.data });
  if (e.data && e.data.type === "cashier:resize") document.querySelector("iframe").height = String(e.data.height);
});</script>
<iframe title="Cashier" src="${src.replace(/"/g, "&quot;")}" width="375" height="900"></iframe></body></html>`;

t.before(async () => {
  browser = await launchBrowser();
  stub = await startPlatformStub({ secrets: { "m-cko": SECRET, "m-adyen": SECRET } });
  acquirer = await startDialectSim(t);
  const shop = createServer((req, res) => {
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end(shopPage(new URL(req.url ?? "/", "http://x").searchParams.get("src") ?? ""));
  });
  servers.push(shop);
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  parent = `http://localhost:${(shop.address() as AddressInfo).port}`;
});

/** Each merchant's one account at its stand-in, its frontend framed by the shop. */
function merchants() {
  const sim = acquirer.sim.url;
  const common = { secret: SECRET, site_id: 7, platform_url: stub.url, validation_url: `${stub.url}/api/validation` };
  const frontend = { allowed_origins: [parent], deposit_presets: [1000, 2500, 5000] };
  return {
    merchants: [
      {
        ...common,
        merchant_id: "m-cko",
        processors: ["cko-main"],
        processor_accounts: [
          {
            name: "cko-main",
            connector: "checkout",
            url: `${sim}/checkout`,
            credentials: { secret_key: CKO.secret_key, webhook_secret: CKO.webhook_secret },
            settings: { processing_channel_id: CHANNEL },
          },
        ],
        frontends: [{ ...frontend, name: "cko-usd", base_currency: "USD" }],
      },
      {
        ...common,
        merchant_id: "m-adyen",
        processors: ["adyen-eu"],
        processor_accounts: [
          {
            name: "adyen-eu",
            connector: "adyen",
            url: `${sim}/adyen/v71`,
            credentials: { api_key: ADYEN.api_key, hmac_key: ADYEN.hmac_key },
            settings: { merchant_account: ADYEN.merchant_account },
          },
        ],
        frontends: [{ ...frontend, name: "adyen-eur", base_currency: "EUR" }],
      },
    ],
  };
}

const service = useService(t, { CASHIER_CALLBACK_ALLOW_PRIVATE: "1", CASHIER_WORKER_POLL_MS: "100" }, () => ({ merchants: merchants() }));

t.teardown(async () => {
  await browser?.close();
  await stub?.close();
  for (const s of servers) s.close();
});

/** Every Cashier page's HTML as the browser got it, for the card-number scan at the end. */
const rendered: string[] = [];

async function freshPage(t: Test, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, ...options });
  context.setDefaultTimeout(30_000);
  t.teardown(() => context.close());
  return context.newPage();
}

async function openSession(t: Test, a: Acquirer): Promise<string> {
  const body = sessionBody({
    merchant_id: a.merchant,
    frontend: a.frontend,
    currency: a.currency,
    return_url: `${stub.url}/return`,
    sc_order_id: `sc-${a.key}`,
  });
  const reply = await startSession(service().edgeUrl, body);
  t.equal(reply.http, 200, "the session starts", { reply: reply.body });
  t.ok(replySigned(reply.body), "the reply is signed");
  return reply.body.redirect_url as string;
}

/** axe on one of Cashier's pages (a page or the Cashier's frame), and its HTML kept for the scan. */
async function axeClean(t: Test, where: Page | Frame, what: string): Promise<void> {
  t.same(await axeViolations(where as Page), [], `axe: ${what}`);
  rendered.push(await where.content());
}

/** Nothing wider than the 375 px it is shown in: no sideways scrolling. */
async function fits(t: Test, where: Page | Frame, what: string): Promise<void> {
  const wide = (await where.evaluate("document.documentElement.scrollWidth")) as number;
  t.ok(wide <= 375, `${what} fits 375 px (${wide} px wide)`);
}

async function fillCard(where: Page | Frame, number: string): Promise<void> {
  await where.check("#preset-2500");
  await where.fill("#card_number", number);
  await where.fill("#card_exp", "12/30");
  await where.fill("#cvv", "123");
  await where.fill("#holder", "Jane Doe");
}

/** The sale's trace id, from the receipt of Cashier's result page. */
const traceOf = async (where: Page | Frame) => Number((await where.textContent("#receipt-reference"))?.trim());

const transactionOf = async (traceId: number) => (await service().client.getTransaction({ traceId })).transaction!;

/** The payments the acquirer's ledger holds for a sale (the connectors send the trace id as the reference). */
function ledgerPayments(a: Acquirer, traceId: number): unknown[] {
  return readFileSync(acquirer.sim.ledgerFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { t: string; p?: { reference?: string } })
    .filter((e) => e.t === a.ledgerKind && e.p?.reference === String(traceId));
}

type Event = { origin: string; data: Record<string, unknown> };
const eventsOf = async (page: Page) => (await page.evaluate("window.events")) as Event[];

/** The shop page framing a new session of `a`'s merchant, once the Cashier in it has said it loaded; the frame. */
async function framedCashier(t: Test, a: Acquirer, page: Page): Promise<Frame> {
  const src = `${await openSession(t, a)}?parent=${encodeURIComponent(parent)}`;
  await page.goto(`${parent}/shop?src=${encodeURIComponent(src)}`);
  await page.waitForFunction("window.events && window.events.some((e) => e.data.type === 'cashier:loaded')");
  return page.frames().find((f) => f !== page.mainFrame())!;
}

/** The acquirer's own page, as the customer reaches it from the deposit form (in a tab or in the frame). */
async function atAcquirer(t: Test, where: Page | Frame): Promise<void> {
  await where.waitForURL((u) => u.href.startsWith(acquirer.sim.url));
  t.equal(await where.textContent("h1"), "3-D Secure challenge", "the acquirer's own 3-D Secure page");
}

for (const a of ACQUIRERS) {
  t.test(`${a.key}: a card without a challenge is approved; the deposit by keyboard alone at 375 px`, async (t) => {
    const page = await freshPage(t);
    await page.goto(await openSession(t, a));
    t.equal(await page.textContent("h1"), "Deposit");
    await fits(t, page, "the deposit form");
    const stops = await keyboardWalk(page);
    for (const s of stops) t.ok(s.visible, `focus visible on ${s.element}`);
    t.equal(stops.at(-1)?.element, "button#pay", "Tab ends on the one submit button");
    await page.focus("#preset-2500");
    await page.keyboard.press("Space");
    for (const [id, text] of [
      ["#card_number", a.frictionless],
      ["#card_exp", "12/30"],
      ["#cvv", "123"],
      ["#holder", "Jane Doe"],
    ] as const) {
      await page.focus(id);
      await page.keyboard.type(text);
    }
    await axeClean(t, page, "deposit form");
    t.comment(`screenshot: ${await screenshot(page, `cashier-${a.key}-deposit-375`)}`);
    await page.focus("#pay");
    await Promise.all([page.waitForURL(/\/result\/\d+/), page.keyboard.press("Enter")]);
    t.equal(await page.textContent("h1"), "Payment approved");
    t.equal((await page.textContent("#receipt-amount"))?.trim(), `25.00 ${a.currency}`);
    await axeClean(t, page, "approved");
    await fits(t, page, "the receipt");

    const traceId = await traceOf(page);
    const x = await transactionOf(traceId);
    t.equal(x.status, TransactionStatus.APPROVED, "approved at the acquirer");
    t.equal(x.paymentProcessor, a.account, "by the merchant's account there");
    t.equal(ledgerPayments(a, traceId).length, 1, "the acquirer's ledger holds one payment for it");
  });

  t.test(`${a.key}: framed by the platform, the customer passes 3-D Secure on the acquirer's page and is back on Cashier's receipt`, async (t) => {
    const page = await freshPage(t, { viewport: { width: 800, height: 1000 } });
    const frame = await framedCashier(t, a, page);
    await fillCard(frame, a.challenged);
    await frame.click("#pay");
    await atAcquirer(t, frame);
    t.comment(`screenshot: ${await screenshot(page, `cashier-${a.key}-3ds-framed-acquirer`)}`);
    await frame.click("#pass");
    await frame.waitForURL(/\/cashier\/s\/.+\/result\/\d+/);
    t.equal(await frame.textContent("h1"), "Payment approved", "Cashier's receipt, in the frame");
    t.equal(new URL(frame.url()).searchParams.get("parent"), parent, "the parent still declared, so the page tells it");
    await page.waitForFunction("window.events.some((e) => e.data.type === 'cashier:result')");
    await axeClean(t, frame, "approved after the acquirer's check, framed");
    await fits(t, frame, "the receipt in the frame");
    t.comment(`screenshot: ${await screenshot(page, `cashier-${a.key}-3ds-framed-approved`)}`);

    const traceId = await traceOf(frame);
    const events = await eventsOf(page);
    t.same([...new Set(events.map((e) => e.origin))], [service().edgeUrl], "every event the platform got is from Cashier's origin");
    const results = events.filter((e) => e.data.type === "cashier:result").map((e) => e.data);
    t.same(
      results.map((r) => [r.intent, r.trace_id, r.transaction_status]),
      [["deposit", traceId, "approved"]],
      "one cashier:result: the deposit, approved",
    );
    const x = await transactionOf(traceId);
    t.equal(x.status, TransactionStatus.APPROVED);
    t.equal(x.paymentProcessor, a.account);
    t.equal(ledgerPayments(a, traceId).length, 1, "one payment at the acquirer");
  });

  t.test(`${a.key}: framed by the platform, the customer fails 3-D Secure; Cashier's refusal says so and the platform hears declined`, async (t) => {
    const page = await freshPage(t, { viewport: { width: 800, height: 1000 } });
    const frame = await framedCashier(t, a, page);
    await fillCard(frame, a.challenged);
    await frame.click("#pay");
    await atAcquirer(t, frame);
    await frame.click("#fail");
    await frame.waitForURL(/\/cashier\/s\/.+\/result\/\d+/);
    t.equal(await frame.textContent("h1"), "Payment declined");
    t.match(await frame.textContent("#result-message"), /security check \(3-D Secure\)/, "the reason: the bank's check");
    await page.waitForFunction("window.events.some((e) => e.data.type === 'cashier:result')");
    await axeClean(t, frame, "declined after the acquirer's check, framed");
    t.comment(`screenshot: ${await screenshot(page, `cashier-${a.key}-3ds-framed-declined`)}`);

    const traceId = await traceOf(frame);
    const result = (await eventsOf(page)).find((e) => e.data.type === "cashier:result")!;
    t.equal(result.origin, service().edgeUrl);
    t.same([result.data.trace_id, result.data.transaction_status], [traceId, "declined"], "cashier:result: declined");
    const x = await transactionOf(traceId);
    t.equal(x.status, TransactionStatus.DECLINED);
    t.equal(x.errorCode, 9004, "error_code 9004: the customer failed the 3-D Secure check, as with the simulators");
    t.equal(ledgerPayments(a, traceId).length, 1, "one payment at the acquirer");

    // Try another card: a fresh form in the same frame, still telling the same parent.
    await Promise.all([frame.waitForURL(/\/deposit/), frame.click("#try-again")]);
    t.equal(await frame.inputValue("#card_number"), "", "a fresh form");
    t.equal(new URL(frame.url()).searchParams.get("parent"), parent);
  });

  t.test(`${a.key}: in a tab at 375 px, by keyboard: the way to the bank, the acquirer's page, and Cashier's refusal when the check fails`, async (t) => {
    const page = await freshPage(t);
    await page.goto(await openSession(t, a));
    const visited: string[] = [];
    page.on("framenavigated", (f) => {
      if (f === page.mainFrame()) visited.push(f.url());
    });
    await fillCard(page, a.challenged);
    await page.focus("#pay");
    await page.keyboard.press("Enter");
    await atAcquirer(t, page);
    const way = visited.find((u) => /\/cashier\/s\/[^/]+\/challenge\/\d+$/.test(u));
    t.ok(way, "the deposit form led through Cashier's way to the bank, which went on by itself");
    t.comment(`screenshot: ${await screenshot(page, `cashier-${a.key}-3ds-acquirer`)}`);

    // The way to the bank again, as a browser that does not follow refreshes shows it: served as it is, less its refresh.
    let served = "";
    await page.route(/\/cashier\/s\/[^/]+\/challenge\/\d+$/, async (route) => {
      const response = await route.fetch();
      served = await response.text();
      await route.fulfill({ response, body: served.replace(/<meta http-equiv="refresh"[^>]*>/, "") });
    });
    await page.goto(way!);
    t.equal(await page.textContent("h1"), "Confirm the payment with your bank");
    const onward = (await page.getAttribute("#to-bank", "href")) ?? "";
    t.match(onward, new RegExp(`^${service().edgeUrl}/3ds/\\d+/[^/?]+$`), "its link leads to the check's own address");
    t.ok(served.includes(`<meta http-equiv="refresh" content="0; url=${onward}">`), "and the page as served goes there at once");
    await axeClean(t, page, "the way to the bank");
    await fits(t, page, "the way to the bank");
    t.comment(`screenshot: ${await screenshot(page, `cashier-${a.key}-bank-check`)}`);
    await page.focus("#to-bank");
    await page.keyboard.press("Enter");
    await atAcquirer(t, page);

    await page.focus("#fail");
    await Promise.all([page.waitForURL(/\/cashier\/s\/.+\/result\/\d+/), page.keyboard.press("Enter")]);
    t.equal(await page.textContent("h1"), "Payment declined");
    t.equal(
      await page.textContent("#result-message"),
      "Your bank's security check (3-D Secure) was not passed, so no money was taken. Try again, or use another card.",
    );
    await axeClean(t, page, "declined after the acquirer's check");
    await fits(t, page, "the refusal");
    t.comment(`screenshot: ${await screenshot(page, `cashier-${a.key}-3ds-declined-375`)}`);
    const stops = await keyboardWalk(page);
    for (const s of stops) t.ok(s.visible, `focus visible on ${s.element}`);
    t.ok(
      stops.some((s) => s.element === "a#try-again"),
      "Try another card is reached by Tab",
    );

    const traceId = await traceOf(page);
    const x = await transactionOf(traceId);
    t.equal(x.status, TransactionStatus.DECLINED);
    t.equal(x.errorCode, 9004, "error_code 9004");
    t.equal(ledgerPayments(a, traceId).length, 1, "one payment at the acquirer");
    const [rfd] = await stub.waitFor("record_failed_deposit", (c) => (c.body as Record<string, unknown>)?.TraceID === traceId);
    t.equal((rfd.body as Record<string, unknown>).SCOrderID, `sc-${a.key}`, "the platform records the failed deposit");

    await page.focus("#try-again");
    await Promise.all([page.waitForURL(/\/deposit/), page.keyboard.press("Enter")]);
    t.equal(await page.textContent("h1"), "Deposit", "back on a fresh deposit form");
  });
}

t.test("with scripts off, the way to the bank still goes on to the acquirer's page, and back to the receipt", async (t) => {
  const a = ACQUIRERS[0];
  const page = await freshPage(t, { javaScriptEnabled: false });
  await page.goto(await openSession(t, a));
  await fillCard(page, a.challenged);
  await page.click("#pay");
  await atAcquirer(t, page);
  await Promise.all([page.waitForURL(/\/cashier\/s\/.+\/result\/\d+/), page.click("#pass")]);
  t.equal(await page.textContent("h1"), "Payment approved");
  rendered.push(await page.content());
  t.equal((await transactionOf(await traceOf(page))).status, TransactionStatus.APPROVED);
});

t.test("no Cashier page and no log line carries a full test card number", async (t) => {
  const text = `${rendered.join("\n")}\n${service().logs()}`;
  for (const a of ACQUIRERS) for (const n of [a.frictionless, a.challenged]) t.notOk(text.includes(n), `${n} appears nowhere`);
  t.ok(rendered.length >= 10, `scanned ${rendered.length} pages and the service's log`);
});
