/**
 * The hosted Cashier's session end in Chromium, as a customer meets it: a
 * deposit page open when the session's time runs out says only that the
 * session has ended, and an autologin address opened after expires_at says
 * only that it cannot be used. The service's clock is moved past the session's
 * 900 s instead of waiting for them; axe on both pages.
 */
import t, { type Test } from "tap";
import type { Browser, Page } from "playwright-core";
import { axeViolations, launchBrowser, screenshot } from "../support/browser.ts";
import { cashierMerchants, sessionBody, startSession } from "../support/cashier.ts";
import { movableClock } from "../support/clock.ts";
import { useService } from "../support/service.ts";

const clock = movableClock();
// The merchants' platform is a loopback address, as every test platform is: the callback check would refuse it at start.
const service = useService(t, { CASHIER_CALLBACK_ALLOW_PRIVATE: "1" }, () => ({
  merchants: cashierMerchants("http://127.0.0.1:9", "http://localhost:1"),
  now: clock.now,
}));
let browser: Browser;

t.before(async () => {
  browser = await launchBrowser();
});
t.teardown(async () => {
  await browser?.close();
});

async function freshPage(t: Test): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 520, height: 900 } });
  context.setDefaultTimeout(20_000);
  t.teardown(() => context.close());
  return context.newPage();
}

/** A signed session start at the service's time; its one-time autologin address. */
async function autologin(over: Record<string, unknown>): Promise<string> {
  const reply = await startSession(service().edgeUrl, sessionBody({ timestamp: Math.floor(clock.now().getTime() / 1000), ...over }));
  t.equal(reply.http, 200, "the session starts");
  return (reply.body as { redirect_url: string }).redirect_url;
}

t.test("past expires_at: the open deposit page says the session has ended, a late link cannot be used", async (t) => {
  const opened = await autologin({ sc_order_id: "sc-open" });
  const unused = await autologin({ sc_order_id: "sc-unused" });

  const page = await freshPage(t);
  await page.goto(opened);
  t.equal(await page.textContent("h1"), "Deposit", "the customer is on the deposit page");
  const depositUrl = page.url();

  clock.advance(901_000);

  const reload = await page.goto(depositUrl);
  t.equal(reload?.status(), 410);
  t.equal(await page.textContent("h1"), "Your session has ended");
  t.notMatch(await page.content(), /Jane|USD|<form/, "and shows nothing else");
  t.same(await axeViolations(page), [], "axe: session ended");
  t.comment(`screenshot: ${await screenshot(page, "cashier-session-ended-en")}`);

  const late = await freshPage(t);
  const res = await late.goto(unused);
  t.equal(res?.status(), 410);
  t.equal(await late.textContent("h1"), "This link cannot be used");
  t.notMatch(await late.content(), /Jane|USD|<form/, "and shows nothing else");
  t.same(await axeViolations(late), [], "axe: late link");
});
