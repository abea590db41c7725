/**
 * The Virtual Terminal over the Backoffice's own HTTP pages, against the running service, the acquirer simulator and
 * a loopback platform: a payouts operator takes a card payment by phone in three steps (the sale, the confirmation
 * with its amount and currency where the card is typed, the result with the transaction's link). The 3-D Secure test
 * card is approved by sim-a with no challenge (the sale went MOTO); the platform's Validation carries created_by
 * backoffice:<login> and its notification comes to {platform_url}/Notification; the form sent again charges once; the
 * audit log holds the action; a viewer's forged form is refused by the engine and charges nothing. No page field lets
 * a browser keep the card (autocomplete off, no cc-* token), and neither the database, the logs, the callbacks nor the
 * pages after the charge hold the card number or its CVV.
 */
import t from "tap";
import { enrolOperators, startConsole, type ConsoleClient } from "../support/backoffice.ts";
import { usePlatformService } from "../support/platform-service.ts";

const { svc, stub } = usePlatformService(t, { CASHIER_CALLBACK_RETRY_SECONDS: "1,1" });
const WAIT = { timeoutMs: 120_000 };
// sim-a's 3-D Secure card: challenged on the web, approved on a MOTO sale.
const CARD = "4000000000003220";
const CVV = "7319";
const PAGE = "/merchants/m-plat/virtual-terminal";

let close: () => Promise<void> = async () => {};
let ops: Map<string, ConsoleClient>;
const as = (login: string) => ops.get(login)!;
const pages: string[] = [];

t.before(async () => {
  const bo = await startConsole(svc());
  close = () => bo.close();
  ops = await enrolOperators(svc(), bo.url, [
    ["pay-ann", "payouts"],
    ["view-vic", "viewer"],
  ]);
});
t.teardown(() => close());

const sale = (requestId: string) => ({
  request_id: requestId,
  frontend: "plat-usd",
  currency: "USD",
  amount: "25.00",
  pin: "cust-moto-1",
  email: "moto@example.com",
  first_name: "Mia",
  last_name: "Phone",
  country: "DE",
  phone: "",
  reason: "order by phone, call ref 7781",
});

const ordersOf = (requestId: string) =>
  svc().sql<{ trace_id: number; status: string; created_by: string; processor: string; redirect_url: string | null; amount_minor: string }>(
    "select t.trace_id, t.status, o.created_by, t.processor, t.redirect_url, o.amount_minor from payment_order o join transaction t on t.order_ref = o.id where o.order_id = $1 order by t.trace_id",
    [`bo-moto-${requestId}`],
  );

t.test("the form keeps no card: autocomplete off on the form and every field, no cc-* token", async (t) => {
  const page = await as("pay-ann").get(PAGE);
  t.equal(page.status, 200);
  pages.push(page.body);
  t.match(page.body, /<form method="post" action="\/merchants\/m-plat\/virtual-terminal" autocomplete="off"/);
  const inputs = [...page.body.matchAll(/<input [^>]*type="text"[^>]*>/g)].map((m) => m[0]);
  t.ok(inputs.length >= 6, `${inputs.length} text fields`);
  for (const i of inputs) t.match(i, /autocomplete="off"/, i);
  t.notMatch(page.body, /cc-(number|exp|csc|name)/);
  const merchant = await as("pay-ann").get("/merchants/m-plat");
  t.match(merchant.body, /href="\/merchants\/m-plat\/virtual-terminal"/, "the merchant page links it for a payouts operator");
});

t.test("a MOTO sale: confirmed with its amount and currency, approved by sim-a without 3-D Secure, the platform told", async (t) => {
  const ann = as("pay-ann");
  const key = /name="request_id" value="([^"]+)"/.exec((await ann.get(PAGE)).body)?.[1] ?? "";
  t.match(key, /^[0-9a-f-]{36}$/, "a fresh form key");
  const confirm = await ann.post(PAGE, { ...sale(key), step: "card" }, PAGE);
  t.equal(confirm.status, 200);
  t.match(
    confirm.body,
    /You are about to charge 25\.00 USD to the customer&#39;s card, for merchant m-plat \(frontend plat-usd\)/,
    "the confirmation says the amount and its currency",
  );
  t.match(confirm.body, /Charge 25\.00 USD<\/button>/, "and its button");
  t.match(confirm.body, /name="card_number"[^>]*autocomplete="off"/);
  t.notMatch(confirm.body, /cc-(number|exp|csc)/);
  pages.push(confirm.body);

  const done = await ann.post(
    PAGE,
    {
      ...sale(key),
      step: "charge",
      card_number: `${CARD.slice(0, 4)} ${CARD.slice(4, 8)} ${CARD.slice(8, 12)} ${CARD.slice(12)}`,
      card_expiry: "12/30",
      card_cvv: CVV,
    },
    PAGE,
  );
  t.equal(done.status, 200, done.body.slice(0, 300));
  pages.push(done.body);
  t.match(done.body, /id="vt-result"/);
  const [order] = await ordersOf(key);
  t.ok(order, "the sale was made under bo-moto-<request_id>");
  t.match(done.body, new RegExp(`href="/transactions/${order.trace_id}"`), "the result links the transaction");
  t.same([order.status, order.created_by, order.processor, Number(order.amount_minor)], ["approved", "backoffice:pay-ann", "sim-a", 2500]);
  t.notOk(order.redirect_url, "no 3-D Secure page");

  const [validation] = await stub().waitFor("validation", (c) => (c.body as Record<string, unknown>).trace_id === order.trace_id, WAIT);
  t.equal((validation.body as Record<string, unknown>).created_by, "backoffice:pay-ann", "Validation names the operator");
  const [note] = await stub().waitFor("notification", (c) => (c.body as Record<string, unknown>).trace_id === order.trace_id, WAIT);
  t.equal(note.path, "/Notification", "the notification at {platform_url}/Notification");
  t.equal((note.body as Record<string, unknown>).transaction_status, "approved");
  t.ok(note.signatureValid, "signed as every callback");

  const again = await ann.post(PAGE, { ...sale(key), step: "charge", card_number: CARD, card_expiry: "12/30", card_cvv: CVV }, PAGE);
  t.equal(again.status, 200);
  t.match(again.body, /nothing was charged again/);
  t.equal((await ordersOf(key)).length, 1, "the same form charges once");

  const audit = await svc().sql<{ actor: string; outcome: string; after_json: string }>(
    "select actor, outcome, after_json::text from audit_log where action = 'transaction.moto' and target = $1 order by id",
    [`trace_id:${order.trace_id}`],
  );
  t.same(
    audit.map((a) => [a.actor, a.outcome]),
    [
      ["pay-ann", "success"],
      ["pay-ann", "success"],
    ],
  );
  t.match(audit[0].after_json, /call ref 7781/);
  t.match(audit[0].after_json, /"card": ?"400000\*{6}3220"/, "the card masked");
});

t.test("the form's faults are named at their fields, before and by the engine", async (t) => {
  const ann = as("pay-ann");
  const empty = await ann.post(PAGE, { ...sale("form-fault-1"), amount: "25.001", email: "", step: "card" }, PAGE);
  t.equal(empty.status, 400);
  t.match(empty.body, /href="#vt-amount"/);
  t.match(empty.body, /href="#vt-email"/);
  const badCard = await ann.post(
    PAGE,
    { ...sale("form-fault-2"), step: "charge", card_number: "4111111111111112", card_expiry: "12/30", card_cvv: "12" },
    PAGE,
  );
  t.equal(badCard.status, 400);
  t.match(badCard.body, /href="#vt-card-number"/);
  t.match(badCard.body, /href="#vt-card-cvv"/);
  t.notMatch(badCard.body, /4111111111111112/, "the card is not drawn back");
  const badCurrency = await ann.post(
    PAGE,
    { ...sale("form-fault-3"), currency: "EUR", step: "charge", card_number: CARD, card_expiry: "12/30", card_cvv: CVV },
    PAGE,
  );
  t.equal(badCurrency.status, 400, "a currency the frontend does not take: the engine names it");
  t.match(badCurrency.body, /href="#vt-currency"/);
  t.equal((await ordersOf("form-fault-3")).length, 0);
});

t.test("a viewer's forged form is refused by the engine and charges nothing", async (t) => {
  const vic = as("view-vic");
  const page = await vic.get(PAGE);
  t.equal(page.status, 403, "the page is not offered");
  const merchant = await vic.get("/merchants/m-plat");
  t.notMatch(merchant.body, /virtual-terminal/, "nor linked");
  const forged = await vic.post(
    PAGE,
    { ...sale("forged-by-viewer"), step: "charge", card_number: CARD, card_expiry: "12/30", card_cvv: CVV },
    "/merchants/m-plat",
  );
  t.equal(forged.status, 403);
  t.equal((await ordersOf("forged-by-viewer")).length, 0, "no order");
  const [row] = await svc().sql<{ outcome: string; detail: string }>(
    "select outcome, detail from audit_log where actor = 'view-vic' and action = 'transaction.moto' order by id desc limit 1",
  );
  t.equal(row?.outcome, "failure");
  t.match(row?.detail, /does not allow transaction\.moto/);
});

t.test("no card number or CVV in the database, the logs, the callbacks or the pages", async (t) => {
  const leaks = (text: string) =>
    [CARD, `${CARD.slice(0, 4)} ${CARD.slice(4, 8)}`].filter((c) => text.includes(c)).concat(new RegExp(`(^|[^0-9])${CVV}([^0-9]|$)`).test(text) ? [CVV] : []);
  const columns = await svc().sql<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns
     where table_schema = 'public' and data_type in ('text', 'character varying', 'character', 'jsonb', 'json')`,
  );
  for (const { table_name, column_name } of columns) {
    const rows = await svc().sql<{ v: string }>(`select "${column_name}"::text as v from "${table_name}" where "${column_name}" is not null`);
    t.same(
      rows.flatMap((r) => leaks(r.v)),
      [],
      `${table_name}.${column_name}`,
    );
  }
  const [sealed] = await svc().sql<{ n: string }>("select count(*) as n from payment_order where order_id like 'bo-moto-%' and card_sealed is not null");
  t.equal(Number(sealed.n), 0, "the approved sale keeps no sealed number");
  t.same(leaks(svc().logs()), [], "logs");
  for (const c of stub().received()) t.same(leaks(c.rawBody), [], `${c.kind} ${c.path}`);
  for (const p of pages) t.same(leaks(p), [], "a page");
});
