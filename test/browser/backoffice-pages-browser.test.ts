/**
 * The Backoffice's pages in Debian's Chromium, against the running service
 * and transactions made through the Process API (a platform stub receives
 * the callbacks): each role sees the sections and buttons it may use and the
 * engine refuses the rest even when a form is forged; the search finds a sale
 * and its detail explains it (timeline, cascade, callbacks with the
 * platform's replies) and exports as CSV; support redelivers a callback and
 * the platform receives it again; payout decisions with four eyes (the same
 * operator cannot approve twice, a second one can) and bulk approval; the
 * dashboard's charts are drawn by chart.js from those transactions; every
 * page is axe-clean and works by keyboard. Screenshots are kept for the docs.
 */
import t, { type Test } from "tap";
import type { Browser, Page } from "playwright-core";
import type { BackofficeHandle } from "../../edge/backoffice/server.ts";
import { type ConsoleClient, createOperator, enrolOverHttp, startConsole } from "../support/backoffice.ts";
import { axeAll, axeViolations, keyboardWalk, launchBrowser, screenshot } from "../support/browser.ts";
import { usePlatformService } from "../support/platform-service.ts";
import { until } from "../support/until.ts";
import { orderId, processSale } from "../support/wire.ts";

const { svc: service, stub } = usePlatformService(t, { CASHIER_CALLBACK_RETRY_SECONDS: "1,1" });

type Role = "viewer" | "support" | "payouts" | "admin";
let browser: Browser;
let bo: BackofficeHandle;
const clients = new Map<string, ConsoleClient>();
const sale = { approved: "", declined: "", approvedTrace: 0, declinedTrace: 0 };
const payouts: Record<string, string> = {};

async function payout(amount: number): Promise<string> {
  const oid = orderId("po");
  const r = await processSale(service().edgeUrl, {
    merchant_id: "m-plat-manual",
    frontend: "manual-usd",
    order_id: oid,
    transaction_type: "payout",
    cvv: undefined,
    amount,
    pin: "cust-77",
  });
  if (r.body.transaction_status !== "requested") throw new Error(`payout not requested: ${r.text}`);
  return oid;
}

t.before(async () => {
  bo = await startConsole(service());
  browser = await launchBrowser();
  for (const [login, role] of [
    ["vera", "viewer"],
    ["sam", "support"],
    ["pat", "payouts"],
    ["pam", "payouts"],
    ["ada", "admin"],
  ] as const) {
    const op = await enrolOverHttp(bo.url, await createOperator(service(), login, role), login);
    clients.set(login, op.client);
  }
  const edge = service().edgeUrl;
  sale.approved = orderId("sale");
  const ok = await processSale(edge, { merchant_id: "m-plat", frontend: "plat-usd", order_id: sale.approved, notification_url: `${stub().url}/notify` });
  if (ok.body.transaction_status !== "approved") throw new Error(`sale not approved: ${ok.text}`);
  sale.approvedTrace = Number(ok.body.trace_id);
  sale.declined = orderId("sale");
  await processSale(edge, {
    merchant_id: "m-plat",
    frontend: "plat-usd",
    order_id: sale.declined,
    card_number: "4000000000000002",
    notification_url: `${stub().url}/notify`,
  });
  for (let i = 0; i < 3; i++) await processSale(edge, { merchant_id: "m-plat", frontend: "plat-usd", amount: 2000 + i * 100 });
  // The payouts' customer has a deposit history at the same merchant.
  await processSale(edge, { merchant_id: "m-plat-manual", frontend: "manual-usd", amount: 12_000, pin: "cust-77" });
  payouts.small1 = await payout(2500);
  payouts.small2 = await payout(2600);
  payouts.big = await payout(150_000);
  payouts.rejected = await payout(3000);
  // The declined sale owes the platform a RecordFailedDeposit: the callback the pages redeliver.
  await stub().waitFor("record_failed_deposit");
  sale.declinedTrace = await traceOf(sale.declined);
});
t.teardown(async () => {
  await browser?.close();
  await bo?.close();
});

/** A page in a new context signed in as `login` (the session the enrolment started). */
async function pageAs(t: Test, login: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  context.setDefaultTimeout(15_000);
  t.teardown(() => context.close());
  const session = clients.get(login)!.session()!;
  await context.addCookies([{ name: session.name, value: session.value, url: bo.url, httpOnly: true, sameSite: "Strict" }]);
  return context.newPage();
}

async function axeClean(t: Test, page: Page, name: string, shot = false): Promise<void> {
  t.same(await axeViolations(page), [], `axe: no serious or critical violation on ${name}`);
  if (shot) t.comment(`screenshot: ${await screenshot(page, `backoffice-${name}`)}`);
}

async function traceOf(order: string): Promise<number> {
  const rows = await service().sql<{ trace_id: number }>(
    `select t.trace_id from "transaction" t join payment_order o on o.id = t.order_ref where o.order_id = $1 order by t.trace_id desc limit 1`,
    [order],
  );
  return Number(rows[0]?.trace_id);
}

const SECTIONS = ["/", "/transactions", "/payouts", "/stuck", "/merchants", "/operators", "/audit"] as const;
const ALLOWED: Record<Role, readonly string[]> = {
  viewer: ["/", "/transactions", "/payouts", "/stuck", "/merchants"],
  support: ["/", "/transactions", "/payouts", "/stuck", "/merchants"],
  payouts: ["/", "/transactions", "/payouts", "/stuck", "/merchants"],
  admin: SECTIONS,
};

t.test("each role: the sections it may open, the buttons it may use; the engine refuses the rest, forged or not", async (t) => {
  const people: [string, Role][] = [
    ["vera", "viewer"],
    ["sam", "support"],
    ["pat", "payouts"],
    ["ada", "admin"],
  ];
  const bigTrace = await traceOf(payouts.big);
  for (const [login, role] of people) {
    const page = await pageAs(t, login);
    for (const path of SECTIONS) {
      const res = await page.goto(`${bo.url}${path}`);
      const allowed = ALLOWED[role].includes(path);
      t.equal(res?.status(), allowed ? 200 : 403, `${role} ${path}`);
      if (!allowed) t.equal(await page.textContent("h1"), "Not allowed");
      await axeClean(t, page, `${role}${path.replace(/\//g, "-")}`);
    }
    const nav = await page.$$eval("header nav a", (as) => as.map((a) => a.getAttribute("href")));
    t.same(nav, ALLOWED[role], `${role}: the header offers exactly its sections`);
    await page.goto(`${bo.url}/transactions/${sale.declinedTrace}`);
    const redeliver = await page.locator("button[id^=redeliver-]").count();
    t.equal(redeliver > 0, role !== "viewer", `${role}: redeliver buttons ${role !== "viewer" ? "shown" : "hidden"}`);
    await page.goto(`${bo.url}/payouts/${bigTrace}`);
    t.equal(await page.locator("#approve").count(), role === "payouts" || role === "admin" ? 1 : 0, `${role}: payout decision form`);
    await page.goto(`${bo.url}/merchants/m-plat-manual`);
    t.equal(await page.locator("#rotate").count(), role === "admin" ? 1 : 0, `${role}: secret rotation`);
    t.equal(await page.locator("#save-four-eyes").count(), role === "admin" ? 1 : 0, `${role}: four-eyes amounts`);
  }
  // Forged forms (a valid CSRF token of the operator's own session, an action its role does not allow).
  const vera = clients.get("vera")!;
  const detail = await clients.get("ada")!.get(`/transactions/${sale.declinedTrace}`);
  const callbackId = /callbacks\/(\d+)\/redeliver/.exec(detail.body)![1];
  const forged: [ConsoleClient, string, Record<string, string>][] = [
    [vera, `/transactions/${sale.declinedTrace}/callbacks/${callbackId}/redeliver`, {}],
    [clients.get("sam")!, `/payouts/${bigTrace}/decision`, { decision: "approve", reason: "checks_passed" }],
    [clients.get("pat")!, "/merchants/m-plat-manual/four-eyes", { thresholds: "USD 1.00" }],
    [clients.get("pat")!, "/operators", { login: "mallory", role: "admin" }],
  ];
  for (const [client, path, fields] of forged) {
    const res = await client.post(path, fields, "/");
    t.equal(res.status, 403, `forged POST ${path} refused by the engine`);
    t.match(res.body, /Your role does not allow this/);
  }
});

t.test("search finds a sale made through the Process API; its detail explains it; the search exports as CSV", async (t) => {
  const page = await pageAs(t, "ada");
  await page.goto(`${bo.url}/transactions`);
  await page.fill("#order_id", sale.approved);
  await page.click("#search");
  await page.waitForURL(/order_id=/);
  const rows = page.locator("#results tbody tr");
  t.equal(await rows.count(), 1, "one attempt of that order");
  t.match(await rows.first().textContent(), /approved/);
  await axeClean(t, page, "transactions", false);
  await page.goto(`${bo.url}/transactions?merchant_id=m-plat`);
  await axeClean(t, page, "transactions", true);
  const csv = await page.request.get(`${bo.url}/transactions.csv?merchant_id=m-plat`);
  t.equal(csv.status(), 200);
  t.match(csv.headers()["content-disposition"], /^attachment; filename="transactions-\d{8}T\d{6}\.csv"$/);
  const text = await csv.text();
  t.match(text, /^trace_id,created,updated,merchant_id,order_id,type,status,amount,currency,/);
  t.match(text, new RegExp(`${sale.approved},sale,approved,10\\.50,USD`), "the sale, its amount from minor units");
  t.notMatch(text, /4111111111111111/, "no full card number");
  const exports = await service().sql<{ actor: string; merchant_id: string; after_json: string }>(
    "select actor, merchant_id, after_json from audit_log where action = 'transaction.export'",
  );
  t.equal(exports.length, 1, "the export is audited once, whatever its pages");
  t.equal(exports[0]?.merchant_id, "m-plat");
  t.match(exports[0]?.after_json, /"merchantId":"m-plat"/, "with its filters");
  await page.goto(`${bo.url}/transactions?trace_id=${sale.approvedTrace}`);
  t.equal(await page.textContent("h1"), `Transaction ${sale.approvedTrace}`, "a trace id opens the transaction");
  t.match(await page.textContent("#timeline"), /created/);
  t.ok((await page.locator("#cascade tbody tr").count()) >= 1, "the cascade's attempts");
  t.match(await page.textContent("main"), /Validation · delivered/, "the Validation call, with the platform's reply");
  t.match(await page.textContent("main"), /HTTP/);
  t.notMatch(await page.content(), /4111111111111111/, "the card is masked");
  await axeClean(t, page, "transaction-detail", true);
  await page.goto(`${bo.url}/transactions/${sale.declinedTrace}`);
  t.match(await page.textContent("#cascade"), /declined/, "the declined sale's attempts with their processor codes");
  t.match(await page.textContent("main"), /RecordFailedDeposit · delivered/);
});

t.test("support redelivers a callback: the platform receives it again", async (t) => {
  const page = await pageAs(t, "sam");
  await page.goto(`${bo.url}/transactions/${sale.declinedTrace}`);
  const before = stub().received("record_failed_deposit").length;
  await page.locator("button[id^=redeliver-]").first().click();
  await page.waitForURL(/notice=redelivered/);
  t.match(await page.textContent("#notice"), /due again/);
  const again = await until(async () => stub().received("record_failed_deposit").length > before, 15_000);
  t.ok(again, "the RecordFailedDeposit arrived once more");
  await page.goto(`${bo.url}/stuck`);
  await axeClean(t, page, "stuck", true);
});

t.test("payouts: the queue with its customer's context, four eyes, a rejection with a reason, bulk approval", async (t) => {
  const ada = await pageAs(t, "ada");
  await ada.goto(`${bo.url}/merchants/m-plat-manual`);
  await ada.fill("#thresholds", "USD 1000.00");
  await ada.click("#save-four-eyes");
  await ada.waitForURL(/notice=saved/);
  t.match(await ada.textContent("#four-eyes"), /1000\.00 USD/);
  await axeClean(t, ada, "merchant", true);

  const pat = await pageAs(t, "pat");
  await pat.goto(`${bo.url}/payouts`);
  t.equal(await pat.locator("#queue tbody tr").count(), 4, "four payouts wait");
  await axeClean(t, pat, "payouts", true);
  const big = await traceOf(payouts.big);
  await pat.click(`#open-${big}`);
  t.match(await pat.textContent("#four-eyes"), /first of two/);
  t.ok((await pat.locator("#deposits").count()) === 1 && (await pat.locator("#totals").count()) === 1, "the customer's history");
  await axeClean(t, pat, "payout", true);
  await pat.selectOption("#reason", "checks_passed");
  await pat.click("#approve");
  await pat.waitForURL(/notice=first/);
  t.match(await pat.textContent("#notice"), /first approval recorded/);
  await pat.goto(`${bo.url}/payouts/${big}`);
  t.match(await pat.textContent("#four-eyes"), /you gave the first approval/);
  await pat.selectOption("#reason", "checks_passed");
  await pat.click("#approve");
  await pat.waitForSelector("#decision-error");
  t.match(await pat.textContent("#decision-error"), /Another operator must give the second/, "the same operator cannot approve twice");

  const pam = await pageAs(t, "pam");
  await pam.goto(`${bo.url}/payouts/${big}`);
  t.match(await pam.textContent("#four-eyes"), /pat approved first/);
  await pam.selectOption("#reason", "checks_passed");
  await pam.click("#approve");
  await pam.waitForURL(/notice=approved/);
  const approved = await until(async () => {
    const rows = await service().sql<{ status: string }>(
      `select t.status from "transaction" t join payment_order o on o.id = t.order_ref where o.order_id = $1`,
      [payouts.big],
    );
    return rows[0]?.status !== "requested" ? rows[0]?.status : undefined;
  });
  t.ok(approved, `the big payout left the queue (${approved})`);
  await pam.goto(`${bo.url}/transactions/${big}`);
  t.match(await pam.textContent("#first-approval"), /First of two approvals: pat \(Checks passed\)/, "its timeline keeps the first approval");
  await axeClean(t, pam, "payout-timeline", true);

  const rejected = await traceOf(payouts.rejected);
  await pat.goto(`${bo.url}/payouts/${rejected}`);
  await pat.selectOption("#reason", "other");
  await pat.click("#reject");
  await pat.waitForSelector("#decision-error");
  t.match(await pat.textContent("#decision-error"), /write a note/);
  await pat.selectOption("#reason", "other");
  await pat.fill("#note", "Customer asked by phone to stop it");
  await pat.click("#reject");
  await pat.waitForURL(/notice=rejected/);

  await pat.goto(`${bo.url}/payouts`);
  const small = [await traceOf(payouts.small1), await traceOf(payouts.small2)];
  for (const trace of small) await pat.check(`#select-${trace}`);
  await pat.click("#bulk-approve");
  await pat.waitForSelector("#bulk-results");
  t.equal(await pat.locator("#bulk-results .status.good").count(), 2, "both approved");
  await axeClean(t, pat, "bulk-results", true);
  await pat.goto(`${bo.url}/payouts`);
  t.match(await pat.textContent("#queue"), /No payout is waiting/);
  const audit = await pageAs(t, "ada");
  await audit.goto(`${bo.url}/audit?action=payout.`);
  t.match(await audit.textContent("#audit"), /pat/);
  t.match(await audit.textContent("#audit"), /Customer asked by phone/, "the note is in the audit log");
  await axeClean(t, audit, "audit", true);
});

t.test("the dashboard's charts are drawn by chart.js from the transactions, with the same numbers as a table", async (t) => {
  const page = await pageAs(t, "ada");
  await page.goto(`${bo.url}/`);
  await page.waitForFunction("document.getElementById('chart-sales') && document.getElementById('chart-sales').chart");
  const attempts = Number(await page.textContent("#figure-attempts"));
  const rows = await service().sql<{ n: number }>(
    `select count(*)::int as n from "transaction" t join payment_order o on o.id = t.order_ref
      where o.type = 'sale' and t.status in ('approved', 'declined', 'declined_retry')`,
  );
  t.equal(attempts, rows[0].n, "the figure counts the final sale attempts");
  const drawn = (await page.evaluate(
    "document.getElementById('chart-sales').chart.data.datasets.reduce((n, d) => n + d.data.reduce((a, b) => a + b, 0), 0)",
  )) as number;
  t.equal(drawn, attempts, "the bars add up to the same number");
  for (const id of ["chart-rate", "chart-declines", "chart-payouts", "chart-callbacks"]) {
    t.ok(await page.evaluate(`!!document.getElementById('${id}').chart`), `${id} is drawn`);
  }
  t.ok(((await page.evaluate("document.getElementById('chart-declines').chart.data.datasets[0].data.length")) as number) > 0, "the decline reasons");
  t.ok((await page.locator("details table").count()) >= 5, "every chart has its table");
  await axeClean(t, page, "dashboard", true);
});

t.test(
  "admin: an operator made on the page enrols from the link it shows; role change, disable; secret rotation, a frontend's settings; the audit chain checked and exported",
  async (t) => {
    const ada = await pageAs(t, "ada");
    await ada.goto(`${bo.url}/operators`);
    await ada.fill("#new-login", "nina");
    await ada.selectOption("#new-role", "viewer");
    await ada.fill("#new-merchants", "m-plat");
    await ada.click("#create-operator");
    await ada.waitForSelector("#enrolment-link");
    const link = (await ada.textContent("#enrolment-link code"))!.trim();
    t.match(link, new RegExp(`^${bo.url.replace(/[.]/g, "\\.")}/enrol/[A-Za-z0-9_-]+$`), "the one-time link, under the console's address");
    const nina = await enrolOverHttp(bo.url, link.slice(link.lastIndexOf("/") + 1), "nina");
    t.equal((await nina.client.get("/")).status, 200, "nina signed in through her link");
    t.equal((await nina.client.get("/merchants/m-plat-manual")).status, 404, "a merchant outside her scope does not exist for her");
    await ada.goto(`${bo.url}/operators`);
    await ada.click("text=Change nina");
    await ada.selectOption("#role-nina", "support");
    await ada.click("#save-nina");
    await ada.waitForURL(/notice=saved/);
    t.match(await ada.textContent("#operators"), /nina\s*support/);
    await ada.click("text=Change nina");
    await ada.click("#disable-nina");
    await ada.waitForURL(/notice=disabled/);
    const after = await nina.client.get("/");
    t.equal(after.status, 303, "a disabled operator's session is over");

    await ada.goto(`${bo.url}/merchants/m-plat`);
    await ada.fill("#new_secret", "a-brand-new-secret-0123456789");
    await ada.click("#rotate");
    await ada.waitForURL(/notice=rotated/);
    t.match(await ada.textContent("#secret-state"), /previous secret still works until/);
    t.notMatch(await ada.content(), /a-brand-new-secret/, "the secret is never shown back");
    await ada.click("text=Change the hosted Cashier of plat-usd");
    await ada.fill("#frontend-plat-usd-origins", "https://shop.example");
    await ada.uncheck("#frontend-plat-usd-save");
    await ada.click("#frontend-plat-usd-submit");
    await ada.waitForURL(/notice=saved/);
    t.match(await ada.textContent("#frontend-plat-usd ~ dl, section[aria-labelledby=frontend-plat-usd]"), /https:\/\/shop\.example/);

    await ada.goto(`${bo.url}/audit`);
    await ada.click("#verify");
    await ada.waitForSelector("#chain");
    t.match(await ada.textContent("#chain"), /The audit chain is intact: \d+ entries checked/);
    // The whole log, the settings' long before and after values among it: every box that scrolls takes the focus.
    await axeClean(t, ada, "audit-log");
    const csv = await ada.request.get(`${bo.url}/audit.csv?action=operator.`);
    t.equal(csv.status(), 200);
    const text = await csv.text();
    t.match(text, /^id,time,actor,action,outcome,merchant_id,target,client_address,before,after,detail,hash\r\n/);
    t.match(text, /,ada,operator\.create,success,/, "the operator made on the page is in the export");
    t.notMatch(text, /a-brand-new-secret/, "no secret in the audit log");
  },
);

t.test("keyboard: the header, the filters and the search are reached with a visible focus", async (t) => {
  const page = await pageAs(t, "ada");
  await page.goto(`${bo.url}/transactions`);
  // The dates are under "More filters" (docs/backoffice.md, Work views): opened by keyboard first.
  await page.focus("#more-filters > summary");
  await page.keyboard.press("Enter");
  const walk = await keyboardWalk(page, 40);
  const ids = walk.map((s) => s.element);
  t.equal(walk[0]?.text, "Skip to main content", "the skip link first");
  for (const needed of ["a#whoami", "button#signout", "input#trace_id", "input#order_id", "select#status", "input#from"])
    t.ok(ids.includes(needed), `Tab reaches ${needed}`);
  for (const s of walk) t.ok(s.visible, `focus visible on ${s.element} ${s.text}`);
  // The search button ends the form's first line: from its last filter, Tab goes on to it and submits with Enter.
  await page.focus("#type");
  let reached = false;
  for (let i = 0; i < 6 && !reached; i++) {
    await page.keyboard.press("Tab");
    reached = (await page.evaluate("document.activeElement.id")) === "search";
  }
  t.ok(reached, "Tab reaches the search button after the first line's filters");
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/transactions\?/);
  t.ok((await page.locator("#results tbody tr").count()) >= 1, "Enter searched");
  await page.goto(`${bo.url}/operators`);
  await axeClean(t, page, "operators", true);
});

t.test("narrow (375 px) and desktop: no page scrolls sideways, only a table inside its own box; the queue's action is in view", async (t) => {
  const ada = await pageAs(t, "ada");
  // A payout waiting, with a long customer pin: the queue's widest row.
  await processSale(service().edgeUrl, {
    merchant_id: "m-plat-manual",
    frontend: "manual-usd",
    order_id: orderId("wide"),
    transaction_type: "payout",
    cvv: undefined,
    pin: "customer-with-a-rather-long-pin-0123456789",
  });
  const widths: string[] = [];
  for (const width of [375, 1280]) {
    await ada.setViewportSize({ width, height: 800 });
    for (const path of [...SECTIONS, "/merchants/m-plat-manual"]) {
      await ada.goto(`${bo.url}${path}`);
      const wide = (await ada.evaluate("document.documentElement.scrollWidth")) as number;
      if (wide > width) widths.push(`${path} at ${width}: ${wide} px`);
    }
  }
  t.same(widths, [], "every page fits its viewport");
  // Not only the serious: the moderate and minor findings too, on the pages with the most tables.
  for (const path of ["/payouts", "/stuck", `/transactions/${sale.approvedTrace}`]) {
    await ada.goto(`${bo.url}${path}`);
    t.same(
      (await axeAll(ada)).map((v) => `${v.id} (${v.impact}): ${v.targets.join(", ")}`),
      [],
      `axe, every impact: ${path}`,
    );
  }
  await ada.setViewportSize({ width: 375, height: 800 });
  // Each table's caption wraps within what its box shows, and stays in view while a wide table scrolls sideways.
  const captionsOut: string[] = [];
  for (const path of [...SECTIONS, `/transactions/${sale.approvedTrace}`]) {
    await ada.goto(`${bo.url}${path}`);
    const out = (await ada.evaluate(`[...document.querySelectorAll(".table-wrap")].flatMap((w) => {
      const c = w.querySelector("caption .caption-text");
      if (!c) return ["a table without its caption text"];
      return [0, w.scrollWidth].flatMap((left) => {
        w.scrollLeft = left;
        const a = c.getBoundingClientRect(), b = w.getBoundingClientRect();
        return a.left < b.left - 1 || a.right > b.right + 1 ? [c.textContent + " at scroll " + w.scrollLeft] : [];
      });
    })`)) as string[];
    captionsOut.push(...out.map((o) => `${path}: ${o}`));
  }
  t.same(captionsOut, [], "every caption is inside its table's visible box at 375 px, scrolled or not");
  for (const path of ["/", "/merchants/m-plat-manual", "/audit"]) {
    await ada.goto(`${bo.url}${path}`);
    t.comment(`screenshot: ${await screenshot(ada, `backoffice-375${path.replaceAll("/", "-")}`)}`);
  }
  await ada.setViewportSize({ width: 1280, height: 800 });
  await ada.goto(`${bo.url}/payouts`);
  const decide = ada.locator("table a", { hasText: "Decide" }).first();
  if ((await decide.count()) > 0) {
    const box = await decide.boundingBox();
    const wrap = await ada.locator(".table-wrap").first().boundingBox();
    t.ok(box && wrap && box.x + box.width <= wrap.x + wrap.width + 1, "the Decide link is inside the visible table, not cut at its edge");
  }
  t.comment(`screenshot: ${await screenshot(ada, "backoffice-payouts-1280")}`);
  await ada.setViewportSize({ width: 375, height: 800 });
  await ada.goto(`${bo.url}/payouts`);
  t.comment(`screenshot: ${await screenshot(ada, "backoffice-payouts-375")}`);
});
