/**
 * The Backoffice finds and explains transactions that customers made in the
 * hosted Cashier, in Debian's Chromium against the running service: a
 * platform stub starts the sessions (signed POST /api/session) and receives
 * the callbacks, the customer pays on the Cashier's pages (one deposit
 * approved, one declined, then a withdrawal to the same card), and the
 * platform makes one sale through Process for comparison. A support operator
 * then searches by order id, e-mail, last four, frontend and trace id, sees
 * who made each transaction (the customer in the Cashier, with its session,
 * or the platform's API), and opens the declined deposit: its timeline, the
 * cascade attempt with the processor's answer and the RecordFailedDeposit the
 * platform got, with SCOrderID and a masked card. Every page is axe-clean,
 * the search form works by keyboard, and no page carries a full card number.
 */
import t, { type Test } from "tap";
import type { Browser, Page } from "playwright-core";
import type { BackofficeHandle } from "../../edge/backoffice/server.ts";
import { type ConsoleClient, createOperator, enrolOverHttp, startConsole } from "../support/backoffice.ts";
import { axeViolations, keyboardWalk, launchBrowser, screenshot } from "../support/browser.ts";
import { cashierMerchants, SECRET, sessionBody, startSession } from "../support/cashier.ts";
import { startPlatformStub, type PlatformStub } from "../support/platform-stub.ts";
import { useService } from "../support/service.ts";
import { orderId, processSale } from "../support/wire.ts";

const CARDS = { approved: "4111111111111111", declined: "4000000000000002", api: "5555555555554444" } as const;
const PIN = `bo-cust-${process.pid}`;
const EMAIL = `jane.bo-${process.pid}@example.com`;

let stub: PlatformStub;
let browser: Browser;
let bo: BackofficeHandle;
let sue: ConsoleClient;

interface Made {
  trace: number;
  order: string;
}
const hosted = { approved: {} as Made, declined: {} as Made, withdrawal: {} as Made };
const api = {} as Made;
/** The auth_tokens the sessions' starts returned (the platform's, never the console's to show). */
const authTokens: string[] = [];
/** Every console page's HTML as the browser got it, for the card-number scan at the end. */
const rendered: string[] = [];

t.before(async () => {
  stub = await startPlatformStub({ secrets: { "m-cash": SECRET, "m-cash-manual": SECRET } });
  browser = await launchBrowser();
});
const service = useService(t, { CASHIER_CALLBACK_ALLOW_PRIVATE: "1", CASHIER_WORKER_POLL_MS: "100" }, () => ({
  merchants: cashierMerchants(stub.url, "http://localhost:9"),
}));
t.teardown(async () => {
  await browser?.close();
  await bo?.close();
  await stub?.close();
});

/** A session the platform starts for the customer (signed, checked), opened once through its autologin address. */
async function customerPage(over: Record<string, unknown>): Promise<Page> {
  const reply = await startSession(
    service().edgeUrl,
    sessionBody({ pin: PIN, email: EMAIL, return_url: `${stub.url}/return`, notification_url: `${stub.url}/notify`, ...over }),
  );
  if (reply.http !== 200 || reply.body.status !== 0) throw new Error(`session not started: ${JSON.stringify(reply.body)}`);
  authTokens.push(reply.body.auth_token as string);
  const context = await browser.newContext({ viewport: { width: 520, height: 900 } });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  await page.goto(reply.body.redirect_url as string);
  return page;
}

/** A deposit with a new card on the Cashier's deposit page; the result page's trace id and order id. */
async function hostedDeposit(card: string, amount: string, scOrderId: string, heading: string): Promise<Made> {
  const page = await customerPage({ sc_order_id: scOrderId, udef1: `u1-${scOrderId}`, udef2: `u2-${scOrderId}` });
  await page.fill("#amount", amount);
  await page.fill("#card_number", card);
  await page.fill("#card_exp", "12/30");
  await page.fill("#cvv", "123");
  await page.fill("#holder", "Jane Doe");
  await Promise.all([page.waitForURL(/\/result\/\d+/), page.click("#pay")]);
  await page.locator("h1", { hasText: heading }).waitFor();
  const made = { trace: Number(/\/result\/(\d+)/.exec(page.url())![1]), order: (await page.textContent("#receipt-order"))!.trim() };
  await page.context().close();
  return made;
}

t.before(async () => {
  hosted.approved = await hostedDeposit(CARDS.approved, "25.00", "sc-ok", "Payment approved");
  hosted.declined = await hostedDeposit(CARDS.declined, "12.34", "sc-no", "Payment declined");
  // The customer withdraws to the card the approved deposit came from (the closed loop).
  const wd = orderId("wd");
  const page = await customerPage({ intent: "withdrawal", order_id: wd, balance: 20_000 });
  await page.fill("#amount", "50");
  await page.fill("#card_number", CARDS.approved);
  await page.fill("#card_exp", "12/30");
  await page.fill("#holder", "Jane Doe");
  await Promise.all([page.waitForURL(/\/result\/\d+/), page.click("#withdraw")]);
  // The merchant pays out without a manual decision: requested, then sent.
  await page.locator("h1", { hasText: /^Withdrawal (requested|sent)$/ }).waitFor();
  hosted.withdrawal = { trace: Number(/\/result\/(\d+)/.exec(page.url())![1]), order: wd };
  await page.context().close();
  // The same customer's sale through the platform's Process call.
  api.order = orderId("api");
  const sale = await processSale(service().edgeUrl, {
    merchant_id: "m-cash",
    frontend: "cash-usd",
    order_id: api.order,
    pin: PIN,
    email: EMAIL,
    card_number: CARDS.api,
    notification_url: `${stub.url}/notify`,
  });
  if (sale.body.transaction_status !== "approved") throw new Error(`sale not approved: ${sale.text}`);
  api.trace = Number(sale.body.trace_id);
  // The declined deposit owes the platform a RecordFailedDeposit: the detail shows it delivered.
  await stub.waitFor("record_failed_deposit", (c) => (c.body as { TraceID?: number })?.TraceID === hosted.declined.trace);

  bo = await startConsole(service());
  sue = (await enrolOverHttp(bo.url, await createOperator(service(), "sue", "support"), "sue")).client;
});

/** A console page signed in as the support operator. */
async function consolePage(t: Test): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  context.setDefaultTimeout(15_000);
  t.teardown(() => context.close());
  const session = sue.session()!;
  await context.addCookies([{ name: session.name, value: session.value, url: bo.url, httpOnly: true, sameSite: "Strict" }]);
  return context.newPage();
}

async function axeClean(t: Test, page: Page, name: string): Promise<void> {
  t.same(await axeViolations(page), [], `axe: no serious or critical violation on ${name}`);
  rendered.push(await page.content());
}

/** The search form filled in as a person would (other fields left empty), submitted with its button. */
async function search(page: Page, fields: Record<string, string>): Promise<{ trace: number; text: string }[]> {
  await page.goto(`${bo.url}/transactions`);
  for (const [id, value] of Object.entries(fields)) {
    // The filters used less are folded under "More filters" (docs/backoffice.md, Work views): opened as a person would.
    if (!(await page.locator(`#${id}`).isVisible())) await page.click("#more-filters > summary");
    await page.fill(`#${id}`, value);
  }
  await Promise.all([page.waitForURL(/\/transactions\?/), page.click("#search")]);
  const rows = await page.$$eval("#results tbody tr", (trs) =>
    trs.map((tr) => ({ trace: Number(tr.querySelector("td a")?.textContent ?? 0), text: (tr.textContent ?? "").replace(/\s+/g, " ") })),
  );
  return rows.filter((r) => r.trace > 0);
}

const row = (rows: { trace: number; text: string }[], trace: number) => rows.find((r) => r.trace === trace)?.text ?? "";

t.test("the search finds the Cashier's transactions by order id, e-mail, last four and frontend, and says who made each", async (t) => {
  const page = await consolePage(t);

  const byOrder = await search(page, { order_id: hosted.declined.order });
  t.same(
    byOrder.map((r) => r.trace),
    [hosted.declined.trace],
    "the order id the Cashier made finds the declined deposit",
  );
  t.match(byOrder[0]?.text, /declined/);
  t.match(byOrder[0]?.text, /12\.34/);
  t.match(byOrder[0]?.text, /400000\*+0002/, "the card, masked");
  t.match(byOrder[0]?.text, /Customer, in the hosted Cashier/, "made by the customer in the Cashier");

  const byEmail = await search(page, { email: EMAIL.toUpperCase() });
  t.same(
    byEmail.map((r) => r.trace).sort((a, b) => a - b),
    [hosted.approved.trace, hosted.declined.trace, hosted.withdrawal.trace, api.trace].sort((a, b) => a - b),
    "the customer's e-mail (any case) finds the two deposits, the withdrawal and the API's sale",
  );
  for (const x of [hosted.approved, hosted.declined, hosted.withdrawal]) t.match(row(byEmail, x.trace), /Customer, in the hosted Cashier/);
  t.match(row(byEmail, api.trace), /Platform, through the Process API/, "the Process sale says the platform made it");
  t.match(row(byEmail, hosted.withdrawal.trace), /Payout/i, "the withdrawal is a payout");
  t.match(row(byEmail, hosted.withdrawal.trace), hosted.withdrawal.order, "with the platform's order id of the session");
  await axeClean(t, page, "a search by e-mail");
  const csv = await (await page.request.get(`${bo.url}/transactions.csv?email=${encodeURIComponent(EMAIL)}`)).text();
  const lines = csv.trim().split("\r\n");
  t.match(lines[0], /,created_by,session_id$/, "the export says who made each and in which session");
  t.match(
    lines.find((l) => l.startsWith(`${hosted.declined.trace},`)),
    /,customer,[1-9][0-9]*$/,
  );
  t.match(
    lines.find((l) => l.startsWith(`${api.trace},`)),
    /,api,$/,
  );
  t.notOk(
    Object.values(CARDS).some((n) => csv.includes(n)),
    "no full card number in the export",
  );
  t.comment(`screenshot: ${await screenshot(page, "backoffice-cashier-search")}`);

  const byLastFour = await search(page, { card_last_four: "0002" });
  t.same(
    byLastFour.map((r) => r.trace),
    [hosted.declined.trace],
    "the last four digits find the declined card's deposit only",
  );

  const byFrontend = await search(page, { frontend: "cash-usd", pin: PIN });
  t.same(
    byFrontend.map((r) => r.trace).sort((a, b) => a - b),
    [hosted.approved.trace, hosted.declined.trace, hosted.withdrawal.trace, api.trace].sort((a, b) => a - b),
    "the frontend (with the customer) lists all four",
  );
  t.same(await search(page, { frontend: "manual-usd", pin: PIN }), [], "another frontend of the merchant lists none of them");
  await axeClean(t, page, "a search by frontend");
});

t.test("a trace id opens the hosted deposit: made by the customer in a Cashier session with the platform's SCOrderID", async (t) => {
  const page = await consolePage(t);
  await page.goto(`${bo.url}/transactions`);
  await page.fill("#trace_id", String(hosted.approved.trace));
  await Promise.all([page.waitForURL(`${bo.url}/transactions/${hosted.approved.trace}`), page.click("#search")]);
  t.equal(await page.textContent("h1"), `Transaction ${hosted.approved.trace}`);
  t.equal(await page.textContent("#made-by"), "Customer, in the hosted Cashier");
  const session = await service().sql<{ session_ref: string }>(`select session_ref from payment_order where order_id = $1`, [hosted.approved.order]);
  t.ok(Number(session[0]?.session_ref) > 0, "the order is tied to its session in the database");
  t.equal(await page.textContent("#session"), String(Number(session[0].session_ref)), "the page names that session");
  t.equal(await page.textContent("#sc-order-id"), "sc-ok");
  t.match(await page.textContent("main"), /Validation · delivered/, "the Validation the customer's submit caused");
  t.match(await page.textContent("main"), /"created_by":\s*"customer"/, "its request says the customer made it");
  t.match(await page.textContent("main"), /"auth_token":\s*"\[auth_token\]"/, "the session's auth_token is not shown, only its place");
  const html = await page.content();
  t.ok(authTokens.length === 3 && authTokens.every((a) => a.length > 0 && !html.includes(a)), "no session's auth_token in the page");
  await axeClean(t, page, "the approved hosted deposit");

  await page.goto(`${bo.url}/transactions/${api.trace}`);
  t.equal(await page.textContent("#made-by"), "Platform, through the Process API", "the API's sale, for comparison");
  t.equal(await page.locator("#session").count(), 0, "no Cashier session");
  t.equal(await page.locator("#sc-order-id").count(), 0);
  await axeClean(t, page, "the Process sale");
  // The engine's own GetTransaction says the same to internal callers.
  const [byCustomer, byApi] = await Promise.all([hosted.approved.trace, api.trace].map((traceId) => service().client.getTransaction({ traceId })));
  t.same(
    [byCustomer.transaction?.createdBy, byCustomer.transaction?.sessionId, byCustomer.transaction?.scOrderId],
    ["customer", BigInt(session[0].session_ref), "sc-ok"],
    "GetTransaction: made by the customer, in that session",
  );
  t.same([byApi.transaction?.createdBy, byApi.transaction?.sessionId, byApi.transaction?.scOrderId], ["api", 0n, ""], "GetTransaction: made by the API");

  await page.goto(`${bo.url}/transactions/${hosted.withdrawal.trace}`);
  t.equal(await page.textContent("#made-by"), "Customer, in the hosted Cashier", "the withdrawal too");
  t.ok(Number(await page.textContent("#session")) > 0);
  await axeClean(t, page, "the hosted withdrawal");
});

t.test("the declined hosted deposit: timeline, the cascade attempt with the processor's answer, RecordFailedDeposit as sent", async (t) => {
  const page = await consolePage(t);
  await page.goto(`${bo.url}/transactions/${hosted.declined.trace}`);
  t.match(await page.textContent("#status"), /declined/);
  t.equal(await page.textContent("#made-by"), "Customer, in the hosted Cashier");
  t.equal(await page.textContent("#sc-order-id"), "sc-no");

  const timeline = await page.$$eval("#timeline tbody tr", (trs) => trs.map((tr) => (tr.textContent ?? "").replace(/\s+/g, " ")));
  t.match(timeline[0], /created/, "the timeline starts with the creation");
  t.match(timeline.at(-1), /declined/, "and ends declined");

  const cascade = await page.$$eval("#cascade tbody tr", (trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => (td.textContent ?? "").trim())));
  t.equal(cascade.length, 1, "one attempt: a decline is not retried on the next processor");
  t.equal(cascade[0][2], "sim-a", "at the cascade's first processor");
  t.match(cascade[0][3], /declined/);
  t.ok(Number(cascade[0][4]) > 0, `with the decline's code (${cascade[0][4]})`);
  t.match(cascade[0][5], /^05\b.*honou?r/i, "and the processor's answer (05, do not honour)");

  const rfd = page.locator("section.card", { has: page.locator("h3", { hasText: "RecordFailedDeposit" }) });
  t.equal(await rfd.count(), 1, "the RecordFailedDeposit callback");
  t.match(await rfd.locator("h3").textContent(), /delivered/);
  const sent = JSON.parse((await rfd.locator("pre").first().textContent())!) as Record<string, unknown>;
  t.equal(sent.SCOrderID, "sc-no", "with the session's SCOrderID");
  t.equal(sent.Udef1, "u1-sc-no");
  t.equal(sent.Udef2, "u2-sc-no");
  t.equal(sent.CreatedBy, "customer");
  t.equal(sent.TraceID, hosted.declined.trace);
  t.equal(sent.CardNumber, "400000******0002", "the card masked, first six and last four");
  t.equal(sent.errorCode, "05", "the processor's code");
  t.match(await rfd.textContent(), /HTTP/, "the platform's reply is shown");
  const html = await page.content();
  t.notOk(html.includes(CARDS.declined), "the full card number appears nowhere in the page");
  await axeClean(t, page, "the declined hosted deposit");
  t.comment(`screenshot: ${await screenshot(page, "backoffice-cashier-declined-detail")}`);
});

t.test("keyboard: Tab reaches every filter of the search and the button; Enter searches", async (t) => {
  const page = await consolePage(t);
  await page.goto(`${bo.url}/transactions`);
  // "More filters" opened by keyboard first: its filters are folded until then.
  await page.focus("#more-filters > summary");
  await page.keyboard.press("Enter");
  const walk = await keyboardWalk(page, 40);
  const ids = walk.map((s) => s.element);
  for (const needed of ["input#trace_id", "input#order_id", "input#email", "input#card_last_four", "input#frontend"])
    t.ok(ids.includes(needed), `Tab reaches ${needed}`);
  for (const s of walk) t.ok(s.visible, `focus visible on ${s.element}`);
  await page.focus("#card_last_four");
  await page.keyboard.type("0002");
  let reached = false;
  // The button sits on the form's first line, before "More filters": Shift+Tab goes back to it.
  for (let i = 0; i < 20 && !reached; i++) {
    await page.keyboard.press("Shift+Tab");
    reached = (await page.evaluate("document.activeElement.id")) === "search";
  }
  t.ok(reached, "Shift+Tab goes back to the search button");
  await Promise.all([page.waitForURL(/card_last_four=0002/), page.keyboard.press("Enter")]);
  t.equal(await page.locator("#results tbody tr").count(), 1, "Enter searched");
  await axeClean(t, page, "a search by last four");
});

t.test("no console page carries a full test card number", async (t) => {
  t.ok(rendered.length >= 6, `scanned ${rendered.length} pages`);
  const all = rendered.join("\n");
  for (const number of Object.values(CARDS)) t.notOk(all.includes(number), `${number} appears nowhere`);
});
