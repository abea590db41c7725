/**
 * The hosted Cashier in the five languages added for players (Spanish,
 * French, Brazilian Portuguese, Italian, Turkish), in Chromium at a phone's
 * 375 px: each deposit page names its language on <html>, reads in it, writes
 * the amounts as that language writes money, fits the width, is axe clean and
 * leaves a screenshot. The choice follows the session's locale (a regional
 * tag served its language, pt-PT served Brazilian Portuguese) and else the
 * browser's; a refusal and a receipt come in the page's language, the
 * receipt's date written by the locale.
 */
import t, { type Test } from "tap";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { axeViolations, launchBrowser, screenshot } from "../support/browser.ts";
import { cashierMerchants, SECRET, sessionBody, startSession } from "../support/cashier.ts";
import { startPlatformStub, type PlatformStub } from "../support/platform-stub.ts";
import { useService } from "../support/service.ts";

const PARENT = "https://shop.example";
let browser: Browser;
let stub: PlatformStub;

t.before(async () => {
  browser = await launchBrowser();
  stub = await startPlatformStub({ secrets: { "m-cash": SECRET } });
});

const service = useService(t, { CASHIER_CALLBACK_ALLOW_PRIVATE: "1" }, () => ({ merchants: cashierMerchants(stub.url, PARENT) }));

t.teardown(async () => {
  await browser?.close();
  await stub?.close();
});

async function phonePage(t: Test, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 }, ...options });
  context.setDefaultTimeout(20_000);
  t.teardown(() => context.close());
  return context.newPage();
}

async function depositPage(t: Test, locale: string | undefined, options: BrowserContextOptions = {}): Promise<Page> {
  const reply = await startSession(service().edgeUrl, sessionBody({ return_url: `${stub.url}/return`, ...(locale ? { locale } : {}) }));
  t.equal(reply.http, 200, "the session starts", { reply: reply.body });
  const page = await phonePage(t, options);
  await page.goto(reply.body.redirect_url as string);
  return page;
}

/** A label's text with its spaces (no-break ones included, as Intl writes them) made plain, to compare. */
const plain = (s: string | null) => (s ?? "").replace(/\s+/g, " ").trim();

const LANGUAGES = [
  { lang: "es", session: "es-MX", browser: "en-US", h1: "Depósito", amounts: ["10,00 US$", "25,00 US$", "50,00 US$"], why: "the session's es-MX" },
  {
    lang: "fr",
    session: "fr-CA",
    browser: "de-DE",
    h1: "Dépôt",
    amounts: ["10,00 $US", "25,00 $US", "50,00 $US"],
    why: "the session's fr-CA, over a German browser",
  },
  {
    lang: "pt-BR",
    session: "pt-PT",
    browser: "en-US",
    h1: "Depósito",
    amounts: ["US$ 10,00", "US$ 25,00", "US$ 50,00"],
    why: "the session's pt-PT: Brazilian Portuguese",
  },
  { lang: "it", session: "it", browser: "en-US", h1: "Deposito", amounts: ["10,00 USD", "25,00 USD", "50,00 USD"], why: "the session's it" },
  {
    lang: "tr",
    session: undefined,
    browser: "tr-TR",
    h1: "Para yatırma",
    amounts: ["$10,00", "$25,00", "$50,00"],
    why: "no session locale: the browser's tr-TR",
  },
] as const;

for (const l of LANGUAGES) {
  t.test(`the deposit page in ${l.lang} at 375 px (${l.why})`, async (t) => {
    const page = await depositPage(t, l.session, { locale: l.browser });
    t.equal(await page.getAttribute("html", "lang"), l.lang, "<html lang>");
    t.equal(await page.getAttribute("html", "dir"), "ltr");
    t.equal(plain(await page.textContent("h1")), l.h1, "the heading in the language");
    t.same((await page.locator("label[for^=preset-]").allTextContents()).map(plain), l.amounts, "the amounts as the language writes money");
    const width = await page.evaluate("document.documentElement.scrollWidth");
    t.ok((width as number) <= 375, `nothing wider than the phone (${width} px)`);
    t.same(await axeViolations(page), [], "axe");
    t.comment(`screenshot: ${await screenshot(page, `cashier-deposit-${l.lang}`)}`);
  });
}

t.test("a refusal in French: the error summary and the field's message in the page's language", async (t) => {
  const page = await depositPage(t, "fr");
  await page.check("#preset-1000");
  await page.fill("#card_number", "4111 1111 1111 1112");
  await page.fill("#card_exp", "12/30");
  await page.fill("#cvv", "123");
  await page.fill("#holder", "Jeanne Dupont");
  await Promise.all([page.waitForURL(/\/deposit/), page.click("#pay")]);
  await page.waitForSelector("#error-summary:focus");
  t.match(plain(await page.textContent("#error-summary")), /Votre saisie comporte 1 problème/, "the summary, singular");
  t.match(plain(await page.textContent("#error-summary")), /Saisissez le numéro tel qu’il figure sur la carte/, "the card number's message");
  t.same(await axeViolations(page), [], "axe: errors in French");
  t.comment(`screenshot: ${await screenshot(page, "cashier-deposit-errors-fr")}`);
});

t.test("approved in Brazilian Portuguese: the receipt's amount and date as Brazil writes them", async (t) => {
  const page = await depositPage(t, "pt-BR");
  await page.check("#preset-2500");
  await page.fill("#card_number", "4111111111111111");
  await page.fill("#card_exp", "12/30");
  await page.fill("#cvv", "123");
  await page.fill("#holder", "Joana Silva");
  const before = new Date();
  await Promise.all([page.waitForURL(/\/result\/\d+/), page.click("#pay")]);
  await page.locator("h1", { hasText: "Pagamento aprovado" }).waitFor({ timeout: 30_000 });
  const day = (d: Date) => new Intl.DateTimeFormat("pt-BR", { dateStyle: "medium", timeZone: "UTC" }).format(d);
  t.ok([day(before), day(new Date())].map(plain).includes(plain(await page.textContent("#receipt-date"))), "the date as Brazil writes it (29 de nov. de 2026)");
  t.match(plain(await page.textContent("main")), /US\$ 25,00/, "the amount as Brazil writes it");
  t.same(await axeViolations(page), [], "axe: approved in Brazilian Portuguese");
  t.comment(`screenshot: ${await screenshot(page, "cashier-approved-pt-BR")}`);
});
