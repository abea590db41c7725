/**
 * The hosted payment fields and card tokens (CONTRACT 12) against the running
 * service over HTTP, as a platform and a browser without scripts drive them:
 * the signed `intent: fields` session start and its reply; the page of card
 * inputs only; its errors tied to their fields; a token minted and used in
 * Process (approved, 3-D Secure, a payout, and over gRPC), a repeat of the
 * same request answered as a repeat; every misuse (reused, another pin,
 * another frontend, another merchant, expired on the moved clock, beside the
 * card's members, unknown) refused naming card_token; the signature covering
 * card_token. Then the card-data scan over the token's table, every text
 * column, every reply and the logs.
 */
import t from "tap";
import { ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema } from "../../gen/cashier/engine/v1/errors_pb.js";
import { TransactionStatus } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { saleRequest } from "../support/engine-request.ts";
import { movableClock } from "../support/clock.ts";
import { fieldsMerchants, fieldsSessionBody, mintToken, openFields, postJson, submitFields } from "../support/hosted-fields.ts";
import { SECRET } from "../support/merchants.ts";
import { useService } from "../support/service.ts";
import { canonical, orderId, replySigned, sign } from "../support/wire.ts";
import { hmacHex } from "../support/signer.ts";

const clock = movableClock();
const TOKEN_TTL = 120;
const PARENT = "https://shop.example";
const service = useService(t, { CASHIER_CALLBACK_ALLOW_PRIVATE: "1", CASHIER_CARD_TOKEN_TTL_SECONDS: String(TOKEN_TTL) }, () => ({
  merchants: fieldsMerchants("http://127.0.0.1:9", PARENT),
  now: clock.now,
}));

const NUMBER = "4111111111111111";
const CVV = "737";
const replies: string[] = [];
const now = () => clock.now().getTime();

/** A signed Process body paying with `token` (no card members), as the platform sends it. */
function tokenSale(token: string, over: Record<string, unknown> = {}) {
  return {
    merchant_id: "m-fields",
    frontend: "fields-usd",
    order_id: orderId("fld"),
    transaction_type: "sale",
    amount: 2500,
    currency: "USD",
    card_token: token,
    pin: "cust-fields-1",
    email: "jane@example.com",
    first_name: "Jane",
    last_name: "Doe",
    country: "GB",
    return_url: "https://shop.example/return",
    timestamp: Math.floor(now() / 1000),
    version: "1.0",
    ...over,
  };
}

async function process(body: Record<string, unknown>, signed = true) {
  const r = await postJson(`${service().edgeUrl}/api/process`, signed ? sign(body) : body);
  replies.push(r.text);
  return r;
}

const mint = (over: Record<string, unknown> = {}, card = {}) => mintToken(service().edgeUrl, over, card, now());

t.test("POST /api/session with intent fields: signed as section 9, answered with section 9's members", async (t) => {
  const r = await postJson(`${service().edgeUrl}/api/session`, fieldsSessionBody({}, now()));
  replies.push(r.text);
  t.equal(r.http, 200);
  t.same(Object.keys(r.body).sort(), ["auth_token", "description", "expires_at", "redirect_url", "signature", "status", "version"]);
  t.equal(r.body.status, 0);
  t.ok(replySigned(r.body), "the reply is signed with the merchant's secret");
  t.match(r.body.redirect_url, /\/cashier\/autologin\//);
  t.ok(r.body.auth_token.length <= 75);

  const noPin = await postJson(`${service().edgeUrl}/api/session`, fieldsSessionBody({ pin: "" }, now()));
  t.equal(noPin.http, 400);
  t.match(noPin.body.description, /pin/);
  const badCurrency = await postJson(`${service().edgeUrl}/api/session`, fieldsSessionBody({ currency: "JPY" }, now()));
  t.equal(badCurrency.http, 400);
  t.match(badCurrency.body.description, /currency/);
  const forged = await postJson(`${service().edgeUrl}/api/session`, { ...fieldsSessionBody({}, now()), signature: "0".repeat(96) });
  t.equal(forged.http, 401);
});

t.test("the page: card inputs only, one submit button, framed by allowed_origins only, once", async (t) => {
  const started = await postJson(`${service().edgeUrl}/api/session`, fieldsSessionBody({}, now()));
  const page = await openFields(service().edgeUrl, started.body.redirect_url);
  t.equal(page.http, 200);
  t.match(page.path, /^\/cashier\/s\/[^/]+\/fields/);
  for (const token of ["cc-number", "cc-exp", "cc-csc", "cc-name"]) t.match(page.html, `autocomplete="${token}"`, token);
  t.equal(page.html.match(/<input /g)?.filter((i) => i).length, 6, "four card inputs and the two hidden tokens");
  t.equal(page.html.match(/type="submit"/g)?.length ?? page.html.match(/<button/g)?.length, 1, "one submit button");
  t.notMatch(page.html, /name="amount"/, "no amount");
  t.match(page.headers.get("content-security-policy") ?? "", `frame-ancestors ${PARENT}`);
  const again = await fetch(started.body.redirect_url, { redirect: "manual" });
  t.not(again.status, 303, "the autologin address opens once");
  // A deposit or withdrawal address typed by hand for this session leads to its fields page, in one step.
  const fieldsPath = page.path.split("?")[0];
  for (const other of ["deposit", "withdrawal"]) {
    const r = await fetch(`${service().edgeUrl}${fieldsPath.replace(/fields$/, other)}`, { redirect: "manual" });
    t.equal(r.status, 303, `${other}: sent on`);
    t.equal(new URL(r.headers.get("location") ?? "", service().edgeUrl).pathname, fieldsPath, `${other}: to the fields page`);
  }
});

t.test("errors show in the frame, each tied to its field, and are carried for cashier:error", async (t) => {
  const started = await postJson(`${service().edgeUrl}/api/session`, fieldsSessionBody({}, now()));
  const page = await openFields(service().edgeUrl, started.body.redirect_url);
  const sent = await submitFields(service().edgeUrl, page, { card_number: "4111 1111 1111 1112", card_exp: "13/20", cvv: "1", holder: "" });
  t.equal(sent.http, 400);
  t.same(sent.refused?.fields, ["card_number", "card_exp", "cvv", "holder"]);
  t.equal(sent.refused?.code, "invalid_fields");
  t.match(sent.html, /id="card_number-error"/);
  t.match(sent.html, /aria-describedby="[^"]*card_number-error/);
  t.notMatch(sent.html, /4111 1111 1111 1112|4111111111111112/, "the typed number is not written back");
  // A well-formed expiry in the past is the engine's to refuse (as on the deposit form): tied to its field the same way.
  const past = await submitFields(service().edgeUrl, page, { card_exp: "01/20" });
  t.equal(past.http, 400);
  t.same(past.refused?.fields, ["card_exp"]);
  t.match(past.html, /id="card_exp-error"/);
  const mended = await submitFields(service().edgeUrl, page);
  t.equal(mended.http, 200, "the same form mended mints a token");
  t.ok(mended.minted);
});

t.test("a token pays a sale exactly as a card number; a repeat is a repeat; a second use is refused naming card_token", async (t) => {
  const minted = await mint();
  t.ok(minted.card_token.length <= 64 && minted.card_token.length >= 32, "at most 64 characters, long enough not to guess");
  t.equal(minted.masked, "411111******1111");
  t.equal(minted.brand, "VISA");
  t.equal(minted.expiry, "12/2030");
  const body = tokenSale(minted.card_token);
  const sale = await process(body);
  t.equal(sale.http, 200, sale.text);
  t.equal(sale.body.transaction_status, "approved");
  t.ok(replySigned(sale.body));
  const [order] = await service().sql<{ card_masked: string; card_expiry: string }>(
    "select o.card_masked, o.card_expiry from payment_order o where o.merchant_id = 'm-fields' and o.order_id = $1",
    [body.order_id],
  );
  t.same(order, { card_masked: "411111******1111", card_expiry: "12/2030" }, "the order holds the token's card, masked");

  const repeat = await process({ ...body, timestamp: Math.floor(now() / 1000) });
  t.equal(repeat.http, 200, "the same request again is a repeat, not a second use");
  t.equal(repeat.body.trace_id, sale.body.trace_id);

  const reuse = await process(tokenSale(minted.card_token));
  t.equal(reuse.http, 400);
  t.ok(reuse.body.status > 0);
  t.match(reuse.body.description, /card_token/);
  t.match(reuse.body.description, /used already/);

  const [row] = await service().sql<{ cvv_sealed: string | null; used_order_id: string }>(
    "select cvv_sealed, used_order_id from card_token where used_at is not null limit 1",
  );
  t.equal(row.cvv_sealed, null, "the CVV is erased with the token's use");
});

t.test("another pin, frontend or merchant, an unknown or malformed token: refused naming card_token, the token left usable", async (t) => {
  const minted = await mint();
  const cases: [string, Record<string, unknown>][] = [
    ["another pin", { pin: "cust-someone-else" }],
    ["another frontend", { frontend: "fields-eur" }],
    ["another merchant", { merchant_id: "m-fields-other", frontend: "other-usd" }],
  ];
  for (const [name, over] of cases) {
    const r = await process(tokenSale(minted.card_token, over));
    t.equal(r.http, 400, name);
    t.match(r.body.description, /card_token: names no card token of this merchant, frontend and pin/, name);
  }
  for (const token of ["A".repeat(43), "short", "x".repeat(65)]) {
    const r = await process(tokenSale(token));
    t.equal(r.http, 400);
    t.match(r.body.description, /card_token/);
  }
  const mine = await process(tokenSale(minted.card_token));
  t.equal(mine.body.transaction_status, "approved", "its own customer still pays with it");
});

t.test("a token beside card_number, card_exp or cvv is refused naming card_token", async (t) => {
  const minted = await mint();
  for (const member of [{ card_number: NUMBER }, { card_exp: "12/2030" }, { cvv: CVV }, { card_number: NUMBER, card_exp: "12/2030", cvv: CVV }]) {
    const r = await process(tokenSale(minted.card_token, member));
    t.equal(r.http, 400, Object.keys(member).join(","));
    t.match(r.body.description, /card_token: comes in place of card_number, card_exp and cvv/);
  }
  t.equal((await process(tokenSale(minted.card_token))).body.transaction_status, "approved", "the token was not used by the refusals");
});

t.test("the signature covers card_token", async (t) => {
  const minted = await mint();
  const signed = sign(tokenSale(minted.card_token));
  t.match(canonical(signed), `card_token=${minted.card_token}`);
  const other = await mint();
  const swapped = await process({ ...signed, card_token: other.card_token }, false);
  t.equal(swapped.http, 401, "a token swapped under the signature is refused as a bad signature");
  const resigned: Record<string, unknown> = { ...signed, card_token: other.card_token };
  resigned.signature = hmacHex(SECRET, canonical(resigned));
  t.equal((await process(resigned, false)).body.transaction_status, "approved");
});

t.test("an expired token is refused naming card_token", async (t) => {
  const minted = await mint();
  clock.advance((TOKEN_TTL + 1) * 1000);
  const r = await process(tokenSale(minted.card_token));
  t.equal(r.http, 400);
  t.match(r.body.description, /card_token: has expired/);
});

t.test("3-D Secure, payouts and the gRPC engine take a token as they take a card", async (t) => {
  const challenged = await mint({}, { card_number: "4000000000003220" });
  const sale = await process(tokenSale(challenged.card_token));
  t.equal(sale.body.transaction_status, "pending_async", sale.text);
  t.match(sale.body.redirect_url, /^http/);

  const payoutToken = await mint();
  const payout = await process(tokenSale(payoutToken.card_token, { transaction_type: "payout" }));
  t.equal(payout.http, 200, payout.text);
  t.not(payout.body.transaction_status, "declined");

  const refundToken = await mint();
  const refund = await process(tokenSale(refundToken.card_token, { transaction_type: "refund", reference_id: String(sale.body.trace_id) }));
  t.equal(refund.http, 400);
  t.match(refund.body.description, /card_token: is for sales and payouts/);

  const grpcToken = await mint();
  const req = saleRequest({
    merchantId: "m-fields",
    frontend: "fields-usd",
    orderId: orderId("g"),
    amount: { amountMinor: 700n, currency: "USD" },
    card: { number: "", cvv: "", expiry: "" },
    cardToken: grpcToken.card_token,
  });
  req.customer!.pin = "cust-fields-1";
  const answered = await service().client.process(req);
  t.equal(answered.transaction?.status, TransactionStatus.APPROVED);
  try {
    await service().client.process({ ...req, orderId: orderId("g2") });
    t.fail("a second use over gRPC");
  } catch (err) {
    t.ok(err instanceof ConnectError);
    const [d] = (err as ConnectError).findDetails(ErrorDetailSchema);
    t.same(
      d?.violations.map((v) => v.field),
      ["card_token"],
      "named by its ProcessRequest field",
    );
  }
});

t.test("card data: the token's table holds no clear number and no CVV after use; no column, reply or log carries them", async (t) => {
  const used = await service().sql<{ n: number }>("select count(*)::int as n from card_token where used_at is not null and cvv_sealed is not null");
  t.equal(used[0].n, 0, "no CVV kept after a use");
  const columns = await service().sql<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns
     where table_schema = 'public' and data_type in ('text', 'character varying', 'character', 'jsonb', 'json')`,
  );
  const cvv = new RegExp(`(^|[^0-9A-Za-z])${CVV}([^0-9A-Za-z]|$)`);
  let scanned = 0;
  for (const { table_name, column_name } of columns) {
    const rows = await service().sql<{ v: string }>(`select "${column_name}"::text as v from "${table_name}" where "${column_name}" is not null`);
    scanned += rows.length;
    t.same(
      rows.filter((r) => r.v.includes(NUMBER) || r.v.includes("4000000000003220") || cvv.test(r.v)).map((r) => r.v.slice(0, 60)),
      [],
      `${table_name}.${column_name}`,
    );
  }
  t.ok(scanned > 50, `${scanned} values scanned`);
  const tokens = await service().sql<{ card_sealed: string }>("select card_sealed from card_token");
  t.ok(tokens.length > 5 && tokens.every((r) => r.card_sealed.startsWith("v1.")), "the number is only sealed");
  for (const text of replies) t.notOk(text.includes(NUMBER) || cvv.test(text), text.slice(0, 100));
  const logs = service().logs();
  t.notOk(logs.includes(NUMBER), "no card number in the logs");
  t.notOk(cvv.test(logs), "no CVV in the logs");
});
