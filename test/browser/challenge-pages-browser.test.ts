/**
 * The 3-D Secure challenge page on the pages' kit, in Chromium against the
 * running service, in English, German and Arabic (chosen by the browser's
 * Accept-Language): axe-core finds no serious or critical violation, the
 * keyboard alone reaches every control with a visible focus and completes the
 * check, it works with scripts disabled, its CSP admits only the edge's own
 * nonce'd script (an injected inline script does not run), and Arabic is laid
 * out right to left. Screenshots of each are kept for a person to look at.
 */
import t, { type Test } from "tap";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { TransactionStatus } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { axeViolations, focusableControls, keyboardWalk, launchBrowser, screenshot } from "../support/browser.ts";
import { SECRET } from "../support/merchants.ts";
import { startPlatformStub, type PlatformStub } from "../support/platform-stub.ts";
import { useService } from "../support/service.ts";
import { orderId, processSale } from "../support/wire.ts";

const THREE_DS_CARD = "4000000000003220";
const service = useService(t);

let browser: Browser;
let merchant: PlatformStub;
t.before(async () => {
  browser = await launchBrowser();
  merchant = await startPlatformStub({ secrets: { "m-test": SECRET } });
});
t.teardown(async () => {
  await browser?.close();
  await merchant?.close();
});

async function freshPage(t: Test, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext(options);
  context.setDefaultTimeout(15_000);
  t.teardown(() => context.close());
  return context.newPage();
}

async function threeDsSale(t: Test, over: Record<string, unknown> = {}) {
  const order = orderId("kit");
  const returnUrl = `${merchant.url}/return?order=${order}`;
  const reply = await processSale(service().edgeUrl, {
    card_number: THREE_DS_CARD,
    order_id: order,
    return_url: returnUrl,
    amount: 1234567,
    currency: "EUR",
    ...over,
  });
  t.equal(reply.body.transaction_status, "pending_async", "the sale waits for the customer", { reply: reply.text });
  return { order, returnUrl, traceId: reply.body.trace_id as number, redirectUrl: reply.body.redirect_url as string };
}

async function statusOf(traceId: number): Promise<TransactionStatus | undefined> {
  return (await service().client.getTransaction({ traceId })).transaction?.status;
}

const LANGUAGES = [
  {
    locale: "en-GB",
    lang: "en",
    dir: "ltr",
    title: "3-D Secure check",
    amount: "12,345.67 EUR",
    approve: "Approve",
    fail: "Fail",
    skip: "Skip to main content",
  },
  {
    locale: "de-DE",
    lang: "de",
    dir: "ltr",
    title: "3-D-Secure-Prüfung",
    amount: "12.345,67 EUR",
    approve: "Bestätigen",
    fail: "Ablehnen",
    skip: "Zum Hauptinhalt springen",
  },
  {
    locale: "ar-EG",
    lang: "ar",
    dir: "rtl",
    title: "التحقق من \u20663-D Secure\u2069",
    amount: "12,345.67 EUR",
    approve: "موافقة",
    fail: "رفض",
    skip: "انتقل إلى المحتوى الرئيسي",
  },
] as const;

for (const l of LANGUAGES) {
  t.test(`${l.lang}: the page in the browser's language, accessible, strict CSP, completed with the keyboard`, async (t) => {
    const sale = await threeDsSale(t);
    const page = await freshPage(t, { locale: l.locale });
    const cspViolations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
    });
    const res = await page.goto(sale.redirectUrl);
    t.equal(res?.status(), 200);

    // Language and direction.
    t.equal(await page.getAttribute("html", "lang"), l.lang);
    t.equal(await page.getAttribute("html", "dir"), l.dir);
    t.equal(await page.title(), l.title);
    t.equal(await page.textContent("h1"), l.title);
    t.equal((await page.textContent("#amount"))?.trim(), l.amount, "the amount as the language writes it");
    t.equal(await page.textContent("#card"), "400000******3220");

    // The CSP: the edge's script runs under this response's nonce; nothing inline does.
    const csp = res!.headers()["content-security-policy"];
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    t.ok(nonce, "scripts need the nonce");
    t.notMatch(csp, /unsafe-inline|unsafe-eval|\*/);
    t.equal(await page.getAttribute("script[src]", "nonce"), "", "the browser hides the nonce from the DOM once applied");
    t.equal(await page.evaluate("document.documentElement.classList.contains('js')"), true, "the edge's own script ran");

    // Accessibility, before anything is injected below.
    t.same(await axeViolations(page), [], "axe: no serious or critical violation");

    const reported = page.waitForEvent("console", (m) => /Content Security Policy/i.test(m.text()));
    await page.evaluate(`(() => {
      window.blocked = [];
      document.addEventListener("securitypolicyviolation", (e) => window.blocked.push(e.effectiveDirective));
      const s = document.createElement("script");
      s.textContent = "document.documentElement.dataset.injected = 'yes'";
      document.body.append(s);
      const d = document.createElement("div");
      d.innerHTML = '<img src=x alt="" onerror="document.documentElement.dataset.injected2 = 1">';
      document.body.append(d);
    })()`);
    // The browser reports each piece it blocked: the script element at once, the image's handler once the image
    // failed. Once both are reported, neither can still run.
    await page.waitForFunction("window.blocked.includes('script-src-elem') && window.blocked.includes('script-src-attr')");
    await reported;
    await page.evaluate("document.querySelectorAll('body > script:not([src]), body > div').forEach((e) => e.remove())");
    t.equal(await page.getAttribute("html", "data-injected"), null, "an inline script without the nonce does not run");
    t.equal(await page.getAttribute("html", "data-injected2"), null, "nor an inline event handler");
    t.ok(cspViolations.length > 0, "the browser reported the blocked script");
    t.equal(res!.headers()["referrer-policy"], "no-referrer");
    t.equal(res!.headers()["cache-control"], "no-store");
    t.match(res!.headers()["content-security-policy"], "frame-ancestors 'none'");

    // Right to left: the first button of the row stands to the right in Arabic.
    const approve = (await page.locator("#approve").boundingBox())!;
    const fail = (await page.locator("#fail").boundingBox())!;
    if (l.dir === "rtl") t.ok(approve.x > fail.x, "rtl: the row runs right to left");
    else t.ok(approve.x < fail.x, "ltr: the row runs left to right");
    const h1 = (await page.locator("h1").boundingBox())!;
    const main = (await page.locator("main").boundingBox())!;
    const h1Width = await page.evaluate(
      "(() => { const r = document.createRange(); r.selectNodeContents(document.querySelector('h1')); return r.getBoundingClientRect().x; })()",
    );
    if (l.dir === "rtl") t.ok((h1Width as number) > main.x + main.width / 3, "rtl: the heading starts at the right");
    else t.ok(Math.abs((h1Width as number) - h1.x) < 2, "ltr: the heading starts at the left");

    const cardDigits = (await page.evaluate(`(() => {
      const text = document.querySelector("#card bdi").firstChild;
      const at = (i) => { const r = document.createRange(); r.setStart(text, i); r.setEnd(text, i + 1); return r.getBoundingClientRect().x; };
      return [at(0), at(text.length - 1)];
    })()`)) as [number, number];
    t.ok(cardDigits[0] < cardDigits[1], "the card number reads left to right in every language");
    t.comment(`screenshot: ${await screenshot(page, `challenge-${l.lang}`)}`);

    // The keyboard: every control in order, focus always visible; Enter on Approve finishes the check.
    const stops = await keyboardWalk(page);
    t.same(
      stops.map((s) => [s.element, s.text]),
      [
        ["a", l.skip],
        ["button#approve", l.approve],
        ["button#fail", l.fail],
      ],
      "Tab reaches the skip link, then both buttons",
    );
    t.same((await focusableControls(page)).sort(), ["a", "button#approve", "button#fail"].sort(), "and nothing else can take focus");
    for (const s of stops) t.ok(s.visible, `focus is visible on ${s.element}`);
    // Past the last control the focus left the page; back with Shift+Tab to Approve.
    for (let i = 0; i < 3 && (await page.evaluate("document.activeElement.id")) !== "approve"; i++) await page.keyboard.press("Shift+Tab");
    t.equal(await page.evaluate("document.activeElement.id"), "approve");
    await Promise.all([page.waitForURL(sale.returnUrl), page.keyboard.press("Enter")]);
    t.equal(await page.textContent("h1"), "Back at the merchant");
    t.equal(await statusOf(sale.traceId), TransactionStatus.APPROVED, "the keyboard approved the sale");

    // The finished page, in the same language, is accessible too.
    await page.goto(sale.redirectUrl);
    t.equal(await page.getAttribute("html", "lang"), l.lang);
    t.same(await axeViolations(page), [], "axe: the finished page");
    t.comment(`screenshot: ${await screenshot(page, `challenge-finished-${l.lang}`)}`);
  });
}

t.test("with scripts disabled the check still works", async (t) => {
  const sale = await threeDsSale(t);
  const page = await freshPage(t, { javaScriptEnabled: false, locale: "de-DE" });
  t.equal((await page.goto(sale.redirectUrl))?.status(), 200);
  t.equal(await page.getAttribute("html", "class"), null, "no script ran");
  t.equal((await page.textContent("#fail"))?.trim(), "Ablehnen");
  await Promise.all([page.waitForURL(sale.returnUrl), page.click("#fail")]);
  t.equal(await page.textContent("h1"), "Back at the merchant");
  t.equal(await statusOf(sale.traceId), TransactionStatus.DECLINED);
});

t.test("the error pages are accessible and translated", async (t) => {
  const page = await freshPage(t, { locale: "ar" });
  const res = await page.goto(`${service().edgeUrl}/3ds/999999/${"a".repeat(32)}`);
  t.equal(res?.status(), 404);
  t.equal(await page.textContent("h1"), "لا يوجد تحقق كهذا");
  t.equal(await page.getAttribute("html", "dir"), "rtl");
  t.same(await axeViolations(page), []);
  t.comment(`screenshot: ${await screenshot(page, "challenge-not-found-ar")}`);
});
