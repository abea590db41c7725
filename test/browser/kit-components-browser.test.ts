/**
 * The kit's pieces in Chromium, on a fixture form built only from them (the
 * hosted Cashier's pages will be): with errors shown it is axe-clean, the
 * error summary takes the focus and every control is reached by Tab with a
 * visible focus; framed by an allowed origin it posts cashier:loaded and
 * cashier:resize to exactly that origin; framed by any other origin it is not
 * shown at all.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Router from "@koa/router";
import Koa from "koa";
import t, { type Test } from "tap";
import type { Browser, Page } from "playwright-core";
import { assetRoutes } from "../../edge/pages/kit/assets.ts";
import { button, errorSummary, field, hiddenFields } from "../../edge/pages/kit/components.ts";
import { html } from "../../edge/pages/kit/html.ts";
import { translator } from "../../edge/pages/kit/i18n.ts";
import { layout } from "../../edge/pages/kit/layout.ts";
import { newNonce, pageHeaders } from "../../edge/pages/kit/security.ts";
import { axeViolations, keyboardWalk, launchBrowser, screenshot } from "../support/browser.ts";

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `${(server.address() as AddressInfo).port}`;
};

let browser: Browser;
let cashier: string;
let parent: string;
let stranger: string;
const servers: Server[] = [];

/** The fixture form: the kit's layout, error summary, fields, one submit button; posted events go to `parentOrigin`. */
function fixture(parentOrigin: string, locale: "en" | "ar"): { headers: Record<string, string>; body: string } {
  const tr = translator(locale);
  const nonce = newNonce();
  const body = html`<h1>Deposit</h1>
${errorSummary(tr, [
  { field: "amount", message: "Enter an amount from 5.00 to 5,000.00 USD" },
  { field: "card_number", message: "Check the card number" },
])}
<form method="post" novalidate>
${hiddenFields({ session_token: "s", csrf_token: "c" })}
${field({ name: "amount", label: "Amount", hint: "From 5.00 to 5,000.00 USD", error: "Enter an amount from 5.00 to 5,000.00 USD", inputmode: "decimal" })}
${field({ name: "card_number", label: "Card number", error: "Check the card number", autocomplete: "cc-number", inputmode: "numeric", required: true })}
${field({ name: "card_exp", label: "Expiry (MM/YYYY)", autocomplete: "cc-exp", required: true })}
${field({ name: "cvv", label: "Security code", hint: "3 or 4 digits on the back", autocomplete: "cc-csc", inputmode: "numeric", required: true })}
${button({ label: "Pay", id: "pay" })}
</form>`;
  return {
    headers: pageHeaders({ nonce, frameAncestors: [parentOrigin], customerData: true }),
    body: layout({ tr, nonce, title: "Deposit", body, parentOrigin }).value,
  };
}

t.before(async () => {
  browser = await launchBrowser();
  // Three origins: the Cashier (127.0.0.1), an allowed parent (localhost), a stranger (127.0.0.1, another port).
  const parentServer = createServer((req, res) => {
    res.setHeader("content-type", "text/html; charset=utf-8");
    const src = `${cashier}/form?parent=${encodeURIComponent(parent)}${req.url?.includes("wrong") ? "&announce=http://localhost:1" : ""}`;
    res.end(`<!doctype html><title>shop</title><script>window.events = []; addEventListener("message", (e) => events.push({ origin: e.origin, data: e.data }));</script>
<iframe title="Cashier" src="${src}" width="400" height="600"></iframe>`);
  });
  servers.push(parentServer);
  parent = `http://localhost:${await listen(parentServer)}`;
  const strangerServer = createServer((_req, res) => {
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end(`<!doctype html><title>elsewhere</title><iframe title="Cashier" src="${cashier}/form?parent=${encodeURIComponent(parent)}"></iframe>`);
  });
  servers.push(strangerServer);
  stranger = `http://127.0.0.1:${await listen(strangerServer)}`;

  const app = new Koa();
  const router = new Router();
  assetRoutes(router);
  router.get("/form", (ctx) => {
    const allowed = String(ctx.query.parent ?? parent);
    const page = fixture(allowed, ctx.query.lang === "ar" ? "ar" : "en");
    ctx.set(page.headers);
    // A page may announce another origin than the one framing it: the event must then go nowhere.
    ctx.body = ctx.query.announce ? page.body.replace(`data-parent-origin="${allowed}"`, `data-parent-origin="${ctx.query.announce}"`) : page.body;
  });
  app.use(router.routes());
  const cashierServer = createServer(app.callback());
  servers.push(cashierServer);
  cashier = `http://127.0.0.1:${await listen(cashierServer)}`;
});
t.teardown(async () => {
  await browser?.close();
  for (const s of servers) s.close();
});

async function freshPage(t: Test): Promise<Page> {
  const context = await browser.newContext();
  context.setDefaultTimeout(15_000);
  t.teardown(() => context.close());
  return context.newPage();
}

t.test("a form with errors: axe-clean, the summary focused and announced, every control reached with a visible focus", async (t) => {
  for (const lang of ["en", "ar"]) {
    const page = await freshPage(t);
    await page.goto(`${cashier}/form?lang=${lang}`);
    await page.waitForFunction("document.activeElement && document.activeElement.id === 'error-summary'");
    t.equal(await page.getAttribute("#error-summary", "role"), "alert", "the summary is announced");
    t.same(await axeViolations(page), [], `axe: no serious or critical violation (${lang})`);
    t.equal(await page.getAttribute("#card_number", "aria-invalid"), "true");
    t.equal(await page.getAttribute("#amount", "aria-describedby"), "amount-hint amount-error");
    const described = await page.evaluate("document.getElementById('amount-error').textContent");
    t.equal(described, "Enter an amount from 5.00 to 5,000.00 USD", "the error is the text the field points to");
    // Following a summary link takes the keyboard to the field.
    await page.keyboard.press("Tab");
    t.equal(await page.evaluate("document.activeElement.getAttribute('href')"), "#amount");
    await page.keyboard.press("Enter");
    await page.waitForFunction("location.hash === '#amount'");
    const walk = await keyboardWalk(page);
    t.same(
      walk.map((s) => s.element),
      ["a", "a", "a", "input#amount", "input#card_number", "input#card_exp", "input#cvv", "button#pay"],
      "skip link, the two summary links, the four fields, the one submit button",
    );
    for (const s of walk) t.ok(s.visible, `focus visible on ${s.element}`);
    t.comment(`screenshot: ${await screenshot(page, `kit-form-errors-${lang}`)}`);
  }
});

t.test("framed by the allowed origin: cashier:loaded and cashier:resize reach exactly that origin", async (t) => {
  const page = await freshPage(t);
  await page.goto(`${parent}/shop`);
  await page.waitForFunction("window.events.some((e) => e.data.type === 'cashier:resize')");
  const events = (await page.evaluate("window.events")) as { origin: string; data: { type: string; height?: number } }[];
  t.same([...new Set(events.map((e) => e.origin))], [cashier], "every event comes from the Cashier's origin");
  t.ok(events.some((e) => e.data.type === "cashier:loaded"));
  const resize = events.find((e) => e.data.type === "cashier:resize")!;
  t.ok((resize.data.height ?? 0) > 200, `the height is reported (${resize.data.height})`);
  const frame = page.frames().find((f) => f.url().startsWith(cashier))!;
  t.equal(await frame.textContent("h1"), "Deposit", "the Cashier is shown inside the frame");
});

t.test("a page that names another parent origin posts nothing to this one", async (t) => {
  const page = await freshPage(t);
  await page.goto(`${parent}/shop?wrong`);
  const frame = await (await page.waitForSelector("iframe")).contentFrame();
  await frame!.waitForSelector("h1");
  await frame!.waitForFunction("document.documentElement.classList.contains('js') && document.readyState !== 'loading'");
  // The page's script has posted cashier:loaded and cashier:resize (at DOMContentLoaded). A probe the frame posts
  // after them to any origin reaches the parent after them (one source's messages arrive in order): once it has
  // arrived, so would they have.
  await frame!.evaluate("window.parent.postMessage({ type: 'probe' }, '*')");
  await page.waitForFunction("window.events.some((e) => e.data.type === 'probe')");
  t.same(await page.evaluate("window.events.filter((e) => e.data.type !== 'probe')"), [], "postMessage with another target origin is dropped by the browser");
});

t.test("framed by an origin not allowed: the browser refuses to show it", async (t) => {
  const page = await freshPage(t);
  const refused: string[] = [];
  page.on("console", (m) => refused.push(m.text()));
  const blocked = page.waitForEvent("console", (m) => /frame-ancestors/.test(m.text()));
  await page.goto(`${stranger}/elsewhere`);
  // The browser's refusal, once logged, is final: the frame holds its error page, never the Cashier.
  await blocked;
  const frame = page.frames().find((f) => f !== page.mainFrame())!;
  t.not(
    await frame.evaluate("document.querySelector('h1') && document.querySelector('h1').textContent").catch(() => null),
    "Deposit",
    "no Cashier content in the frame",
  );
  t.ok(
    refused.some((m) => /frame-ancestors/.test(m)),
    "the browser names frame-ancestors as the reason",
  );
});
