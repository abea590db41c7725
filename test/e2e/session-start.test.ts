/**
 * POST /api/session over real HTTP through the engine over gRPC on a real
 * Postgres: the hosted Cashier's session start as a platform sees it, signed
 * and refused exactly as Process (CONTRACT 2, 3 and 9): every class, every
 * rule of the table by name, the wire unit of amounts, repeats (also at the
 * same moment) answering one session, and the withdrawal's order_id.
 */
import t from "tap";
import { SECRET, OTHER_SECRET } from "../support/merchants.ts";
import { useService } from "../support/service.ts";
import { orderId, replySigned } from "../support/wire.ts";
import { postSession, sessionBody, withdrawalBody } from "../support/cashier-session.ts";
import { processSale } from "../support/wire.ts";

const MERCHANTS = {
  merchants: [
    {
      merchant_id: "m-test",
      secret: SECRET,
      frontends: [
        {
          name: "test-usd",
          base_currency: "USD",
          currencies: ["USD", "JPY", "BHD"],
          limits: { USD: { deposit_min: 500, deposit_max: 100_000, withdrawal_min: 1000, withdrawal_max: 50_000 }, JPY: { deposit_max: 20_000 } },
        },
      ],
    },
    { merchant_id: "m-other", secret: OTHER_SECRET, frontends: [{ name: "other-usd", base_currency: "USD" }] },
  ],
};

const service = useService(t, { CASHIER_SESSION_TTL_SECONDS: "600" }, { merchants: MERCHANTS });
const url = () => service().edgeUrl;
const SESSION_MEMBERS = ["status", "description", "redirect_url", "auth_token", "expires_at", "version", "signature"];

t.test("a deposit session start answers a signed autologin address, auth_token and expiry", async (t) => {
  const before = Math.floor(Date.now() / 1000);
  const r = await postSession(url(), sessionBody());
  t.equal(r.http, 200, r.text);
  t.equal(r.body.status, 0);
  t.same(Object.keys(r.body), SESSION_MEMBERS);
  t.match(r.body.redirect_url, new RegExp(`^${url()}/cashier/autologin/[A-Za-z0-9_-]{43}$`));
  t.ok(r.body.auth_token.length > 0 && r.body.auth_token.length <= 75, "auth_token at most 75 characters");
  t.ok(r.body.expires_at >= before + 600 && r.body.expires_at <= before + 602, "expires after CASHIER_SESSION_TTL_SECONDS");
  t.equal(r.body.version, "1.0");
  t.ok(replySigned(r.body), "signed with the merchant's secret");
  const [row] = await service().sql<Record<string, unknown>>("select * from hosted_session order by id desc limit 1");
  t.notMatch(JSON.stringify(row), r.body.auth_token, "the auth_token is not stored");
  t.notMatch(JSON.stringify(row), r.body.redirect_url.split("/").pop(), "the autologin token is not stored");
});

t.test("a withdrawal session with a fixed amount within balance and limits starts", async (t) => {
  const r = await postSession(url(), withdrawalBody({ amount: 2500, balance: 10_000 }));
  t.equal(r.http, 200, r.text);
  const [row] = await service().sql<{ intent: string; amount_minor: string; balance_minor: string }>(
    "select intent, amount_minor, balance_minor from hosted_session order by id desc limit 1",
  );
  t.same([row.intent, Number(row.amount_minor), Number(row.balance_minor)], ["withdrawal", 2500, 10_000]);
});

t.test("amounts are in the wire unit: JPY and BHD whole units, USD cents", async (t) => {
  const jpy = await postSession(url(), sessionBody({ currency: "JPY", amount: 1000 }));
  t.equal(jpy.http, 200, jpy.text);
  const bhd = await postSession(url(), sessionBody({ currency: "BHD", amount: 5 }));
  t.equal(bhd.http, 200, bhd.text);
  const rows = await service().sql<{ currency: string; amount_minor: string }>(
    "select currency, amount_minor from hosted_session where currency in ('JPY', 'BHD') order by id",
  );
  t.same(
    rows.map((r) => [r.currency, Number(r.amount_minor)]),
    [
      ["JPY", 1000],
      ["BHD", 5000],
    ],
    "JPY 1000 is 1000 yen; BHD 5 is 5.000 dinars",
  );
  const bigJpy = await postSession(url(), sessionBody({ currency: "JPY", amount: 20_001 }));
  t.equal(bigJpy.http, 400);
  t.match(bigJpy.body.description, /amount: is above the frontend's deposit maximum \(20000 JPY\)/);
});

t.test("every rule of the table is refused by name, 400, signed", async (t) => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["intent missing", { intent: undefined }, /intent: must be deposit or withdrawal/],
    ["intent unknown", { intent: "refund" }, /intent: must be deposit or withdrawal/],
    ["currency not accepted", { currency: "EUR" }, /currency: is not accepted by frontend test-usd/],
    ["currency not ISO", { currency: "ZZZ" }, /currency: must be an ISO 4217 currency code/],
    ["amount zero", { amount: 0 }, /amount: must be a positive integer/],
    ["amount below the minimum", { amount: 499 }, /amount: is below the frontend's deposit minimum \(5.00 USD\)/],
    ["amount above the maximum", { amount: 100_001 }, /amount: is above the frontend's deposit maximum \(1000.00 USD\)/],
    ["frontend of another merchant", { frontend: "other-usd" }, /frontend: is not a frontend of this merchant/],
    ["email", { email: "nope" }, /email: must be an e-mail address/],
    ["first_name too long", { first_name: "x".repeat(26) }, /first_name: must be at most 25 characters/],
    ["last_name missing", { last_name: "" }, /last_name: is required/],
    ["country", { country: "XX" }, /country: must be an ISO 3166-1 alpha-2 code/],
    ["state for US", { country: "US", zip: "10001" }, /state: is required for US/],
    ["zip for US", { country: "US", state: "NY" }, /zip: is required for US/],
    ["state outside", { state: "NY" }, /state: must be blank outside US, CA and AU/],
    ["phone dummy", { phone: "123456" }, /phone: must not be a dummy sequence/],
    ["dob future", { dob: "01/01/2999" }, /dob: must be in the past/],
    ["locale", { locale: "not a tag!" }, /locale: must be a BCP 47 language tag/],
    ["return_url", { return_url: "ftp://x" }, /return_url: must be an http or https URL/],
    ["notification_url", { notification_url: "nope" }, /notification_url: must be an absolute http or https URL/],
    ["sc_order_id", { sc_order_id: "x".repeat(51) }, /sc_order_id: must be at most 50 characters/],
    ["udef1", { udef1: "x".repeat(51) }, /udef1: must be at most 50 characters/],
    ["udef2", { udef2: "x".repeat(51) }, /udef2: must be at most 50 characters/],
    ["order_id on a deposit", { order_id: "ord-1" }, /order_id: is for withdrawals only/],
    ["version", { version: "2.0" }, /version: must be "1.0"/],
    ["pin missing", { pin: "" }, /pin: is required/],
  ];
  for (const [name, over, expected] of cases) {
    const body = Object.fromEntries(Object.entries(sessionBody(over)).filter(([, v]) => v !== undefined));
    const r = await postSession(url(), body);
    t.equal(r.http, 400, `${name}: 400 (${r.text})`);
    t.ok(r.body.status > 0, `${name}: positive status`);
    t.match(r.body.description, expected, name);
    t.ok(replySigned(r.body), `${name}: signed`);
    t.same(Object.keys(r.body), SESSION_MEMBERS, `${name}: the session reply's members`);
    t.equal(r.body.redirect_url, null);
  }
  const w = await postSession(url(), withdrawalBody({ order_id: undefined, amount: 60_000, balance: 1000 }));
  t.equal(w.http, 400);
  t.match(w.body.description, /amount: is above the frontend's withdrawal maximum/);
  t.match(w.body.description, /order_id: is required for a withdrawal/);
  const overBalance = await postSession(url(), withdrawalBody({ amount: 2000, balance: 1500 }));
  t.match(overBalance.body.description, /amount: is above the balance/);
});

t.test("JSON typing is judged like Process: named, 400, before the signature", async (t) => {
  const r = await postSession(url(), sessionBody({ amount: "1000", balance: 1.5, udef1: 7, nested: { a: 1 } }), { unsigned: true });
  t.equal(r.http, 400);
  t.match(r.body.description, /nested: must be a scalar/);
  t.match(r.body.description, /udef1: must be a JSON string/);
  t.match(r.body.description, /amount: must be a JSON integer/);
  t.match(r.body.description, /balance: must be a JSON integer/);
  t.ok(replySigned(r.body), "a known merchant's refusal is signed");
  const cents = await postSession(url(), sessionBody({ currency: "BHD", amount: 550 }));
  t.equal(cents.http, 200, "BHD 550 would be 550 dinars: fine as a whole amount");
});

t.test("authentication classes are Process's: 401 unknown merchant (unsigned), bad signature, stale timestamp", async (t) => {
  const unknown = await postSession(url(), sessionBody({ merchant_id: "m-nobody" }));
  t.equal(unknown.http, 401);
  t.equal(unknown.body.signature, null);
  const bad = await postSession(url(), sessionBody(), { secret: OTHER_SECRET });
  t.equal(bad.http, 401);
  t.match(bad.body.description, /signature does not match/);
  t.ok(replySigned(bad.body), "a bad signature's refusal is still signed by the named merchant");
  const stale = await postSession(url(), sessionBody({ timestamp: Math.floor(Date.now() / 1000) - 120 }));
  t.equal(stale.http, 401);
  t.match(stale.body.description, /timestamp is more than 60 s/);
  const missing = await postSession(url(), sessionBody({ timestamp: undefined }));
  t.equal(missing.http, 400, "no timestamp: malformed, as Process");
});

t.test("the edge's own refusals: 415, 413, not JSON (400), all unsigned", async (t) => {
  const type = await postSession(url(), sessionBody(), { contentType: "text/plain" });
  t.equal(type.http, 415);
  t.equal(type.body.status, 8);
  t.equal(type.body.signature, null);
  t.same(Object.keys(type.body), SESSION_MEMBERS);
  const big = await postSession(url(), {}, { raw: JSON.stringify({ ...sessionBody(), pad: "x".repeat(70_000) }) });
  t.equal(big.http, 413);
  t.equal(big.body.status, 7);
  const junk = await postSession(url(), {}, { raw: "{not json" });
  t.equal(junk.http, 400);
  t.equal(junk.body.status, 1);
});

t.test("the same signed request again answers the same session; other members make another", async (t) => {
  const body = sessionBody({ sc_order_id: orderId("sc"), amount: 1500 });
  const first = await postSession(url(), body);
  const again = await postSession(url(), { ...body, timestamp: (body.timestamp as number) - 5 });
  t.equal(again.http, 200);
  t.same(
    [again.body.redirect_url, again.body.auth_token, again.body.expires_at],
    [first.body.redirect_url, first.body.auth_token, first.body.expires_at],
    "re-signed with another timestamp: the same session",
  );
  t.match(again.body.description, /already started/);
  const other = await postSession(url(), { ...body, amount: 1600 });
  t.not(other.body.redirect_url, first.body.redirect_url, "other parameters: another session");
  const concurrent = sessionBody({ sc_order_id: orderId("sc") });
  const replies = await Promise.all(Array.from({ length: 8 }, () => postSession(url(), concurrent)));
  t.same(new Set(replies.map((r) => r.http)), new Set([200]));
  t.equal(new Set(replies.map((r) => r.body.redirect_url)).size, 1, "eight at the same moment: one session");
  const [{ n }] = await service().sql<{ n: string }>("select count(*) as n from hosted_session where sc_order_id = $1", [concurrent.sc_order_id]);
  t.equal(Number(n), 1, "one row");

  // Once its link is used, the same request opens a new session: the old link could only say it cannot be used.
  const used = await fetch(first.body.redirect_url as string, { redirect: "manual" });
  t.equal(used.status, 303, "the link logs in");
  const after = await postSession(url(), { ...body, timestamp: (body.timestamp as number) - 3 });
  t.equal(after.http, 200);
  t.not(after.body.redirect_url, first.body.redirect_url, "a new link");
  t.not(after.body.auth_token, first.body.auth_token, "of a new session");
  const fresh = await fetch(after.body.redirect_url as string, { redirect: "manual" });
  t.equal(fresh.status, 303, "which logs in");
  const twice = await postSession(url(), { ...body, timestamp: (body.timestamp as number) - 2 });
  t.not(twice.body.redirect_url, after.body.redirect_url, "and so on: each used link is followed by a new session");
});

t.test("a withdrawal's order_id names one session: other parameters 409, an order's id 409", async (t) => {
  const body = withdrawalBody();
  const first = await postSession(url(), body);
  t.equal(first.http, 200);
  const again = await postSession(url(), body);
  t.equal(again.body.redirect_url, first.body.redirect_url);
  const conflict = await postSession(url(), { ...body, balance: 5 });
  t.equal(conflict.http, 409);
  t.equal(conflict.body.status, 6);
  t.match(conflict.body.description, /order_id/);
  t.ok(replySigned(conflict.body));
  const sale = await processSale(url(), { frontend: "test-usd" });
  t.equal(sale.http, 200, sale.text);
  const taken = await postSession(url(), withdrawalBody({ order_id: await lastOrderId() }));
  t.equal(taken.http, 409, "an order_id a Process order holds");
  t.match(taken.body.description, /is already an order of this merchant/);
  // The other way round: a Process payout under the order_id a withdrawal session holds.
  const payout = await processSale(url(), { frontend: "test-usd", transaction_type: "payout", order_id: body.order_id, cvv: "" });
  t.equal(payout.http, 409, `a Process payout under a withdrawal session's order_id: ${payout.text}`);
  t.equal(payout.body.status, 6);
  t.equal(payout.body.description, "order_id: names a hosted Cashier withdrawal session, whose payout its customer requests");
  t.same(await service().sql("select id from payment_order where order_id = $1", [body.order_id]), [], "no order made");
  const saleUnder = await processSale(url(), { frontend: "test-usd", order_id: body.order_id });
  t.equal(saleUnder.http, 409, "nor a sale: order_ids are one namespace");
  const refundUnder = await processSale(url(), {
    frontend: "test-usd",
    transaction_type: "refund",
    reference_id: String(sale.body.trace_id),
    amount: 100,
    order_id: body.order_id,
  });
  t.equal(refundUnder.http, 409, `nor a refund: ${refundUnder.text}`);
  t.equal(refundUnder.body.description, "order_id: names a hosted Cashier withdrawal session, whose payout its customer requests");
  t.same(await service().sql("select id from payment_order where order_id = $1", [body.order_id]), [], "still no order made");
});

async function lastOrderId(): Promise<string> {
  const [row] = await service().sql<{ order_id: string }>("select order_id from payment_order order by id desc limit 1");
  return row.order_id;
}

t.test("a withdrawal session and a Process order racing for one order_id: exactly one of them takes it", async (t) => {
  // Both sides at the same moment, many times: a check on each side alone lets both through now and then.
  const pairs = await Promise.all(
    Array.from({ length: 40 }, async (_, i) => {
      const id = orderId();
      const kind = i % 2 === 0 ? "payout" : "sale";
      const [session, order] = await Promise.all([
        postSession(url(), withdrawalBody({ order_id: id })),
        processSale(
          url(),
          kind === "payout" ? { frontend: "test-usd", transaction_type: "payout", order_id: id, cvv: "" } : { frontend: "test-usd", order_id: id },
        ),
      ]);
      return { id, kind, session: session.http, order: order.http };
    }),
  );
  for (const p of pairs) t.same([p.session, p.order].sort(), [200, 409], `${p.kind} ${p.id}: one 200 and one 409, got session ${p.session}, order ${p.order}`);
  const [{ both }] = await service().sql<{ both: string }>(
    `select count(*) as both from hosted_session s join payment_order o on o.merchant_id = s.merchant_id and o.order_id = s.order_id
      where s.intent = 'withdrawal' and o.session_ref is null`,
  );
  t.equal(Number(both), 0, "no order_id is held by a withdrawal session and a Process order at once");
});
