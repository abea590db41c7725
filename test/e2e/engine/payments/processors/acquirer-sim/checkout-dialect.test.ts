/**
 * The simulator's Checkout.com stand-in over HTTP, as the checkout connector
 * reaches it: Checkout's paths, its test cards and amounts, 3-D Secure with
 * the challenge page and the redirect back with cko-session-id, refunds,
 * card payouts, Cko-Idempotency-Key, and signed webhooks retried until
 * acknowledged, also across a restart. The published schemas' checks are in
 * checkout-contract.test.ts.
 */
import { createHmac } from "node:crypto";
import t from "tap";
import { CHANNEL, CKO, type Received, startDialectSim } from "../../../../../support/acquirer-sim-dialects.ts";

let nextRef = 1;
const card = (number: string) => ({ type: "card", number, expiry_month: 12, expiry_year: 2030, cvv: "100" });
const sale = (number: string, over: Record<string, unknown> = {}) => ({
  source: card(number),
  amount: 1000,
  currency: "USD",
  reference: `ord-${nextRef++}`,
  processing_channel_id: CHANNEL,
  ...over,
});
const payout = (number: string, over: Record<string, unknown> = {}) => ({
  source: { type: "currency_account", id: "ca_bbbbbbbbbbbbbbbbbbbbbbbbbb" },
  destination: { ...card(number), account_holder: { type: "individual", first_name: "Ada", last_name: "Lovelace" } },
  amount: 2500,
  currency: "EUR",
  reference: `po-${nextRef++}`,
  processing_channel_id: CHANNEL,
  instruction: { funds_transfer_type: "FD" },
  ...over,
});

const ofPayment = (id: string) => (r: Received) => (r.body.data as { id?: string } | undefined)?.id === id;
const types = (rs: Received[]) => rs.map((r) => r.body.type);

t.test("a key is required: no key, a wrong one, or another scheme is 401", async (t) => {
  const s = await startDialectSim(t);
  t.equal((await s.cko("POST", "/payments", sale("4242424242424242"), { authorization: "" })).status, 401);
  t.equal((await s.cko("POST", "/payments", sale("4242424242424242"), { authorization: "Bearer sk_sbox_not-the-key" })).status, 401);
  t.equal(
    (await s.cko("GET", "/payments/pay_aaaaaaaaaaaaaaaaaaaaaaaaaa", undefined, { authorization: CKO.secret_key })).status,
    401,
    "the bare key without Bearer",
  );
});

t.test("4242 4242 4242 4242 is approved and captured; found by id and by reference; webhooks signed", async (t) => {
  const s = await startDialectSim(t);
  const body = sale("4242424242424242", { metadata: { trace_id: 41 } });
  const res = await s.cko("POST", "/payments", body);
  t.equal(res.status, 201);
  t.match(res.body, {
    approved: true,
    status: "Authorized",
    response_code: "10000",
    amount: 1000,
    currency: "USD",
    reference: body.reference,
    source: { last4: "4242", bin: "424242" },
  });
  t.match(res.body.id, /^pay_[a-z2-7]{26}$/);
  t.match(res.body.action_id, /^act_[a-z2-7]{26}$/);
  t.ok(res.headers.get("cko-request-id"), "a Cko-Request-Id header");
  t.equal(res.body._links.self.href, `${s.sim.url}/checkout/payments/${res.body.id}`, "links are absolute, on the base the caller used");

  const got = await s.cko("GET", `/payments/${res.body.id}`);
  t.match(got.body, {
    id: res.body.id,
    status: "Captured",
    approved: true,
    metadata: { trace_id: 41 },
    balances: { total_captured: 1000, available_to_refund: 1000 },
  });
  const listed = await s.cko("GET", `/payments?reference=${body.reference}`);
  t.match(listed.body, { total_count: 1, data: [{ id: res.body.id }] });
  t.equal((await s.cko("GET", "/payments")).status, 422, "a list needs a reference");
  t.equal((await s.cko("GET", "/payments/pay_aaaaaaaaaaaaaaaaaaaaaaaaaa")).status, 404);

  const hooks = await s.hooks.waitFor(ofPayment(res.body.id), 2);
  t.same(types(hooks), ["payment_approved", "payment_captured"], "approved, then captured, in order");
  for (const h of hooks) {
    t.equal(
      h.headers["cko-signature"],
      createHmac("sha256", CKO.webhook_secret).update(h.raw).digest("hex"),
      `${h.body.type}: Cko-Signature is the HMAC of the raw body`,
    );
    t.match(h.body, { id: /^evt_[a-z2-7]{26}$/, created_on: String, data: { id: res.body.id, amount: 1000, currency: "USD", reference: body.reference } });
  }
  t.equal(hooks[0].path, "/webhooks/m-test/cko-main", "to the account's webhook URL");
});

t.test("declines by test card and by amount carry Checkout's response codes", async (t) => {
  const s = await startDialectSim(t);
  const cases: [string, number, string, string][] = [
    ["4544249167673670", 1000, "USD", "20051"],
    ["4024007103573027", 1000, "USD", "20012"],
    ["4111111111111129", 1000, "USD", "20001"],
    ["4095254802642505", 1000, "USD", "20068"],
    ["4941202060999329", 1000, "USD", "30041"],
    ["4500622868341387", 1000, "USD", "20154"],
    ["4242424242424242", 12305, "USD", "20005"],
    ["4242424242424242", 1051, "GBP", "20051"],
    ["4242424242424242", 10033, "EUR", "30033"],
    ["4242424242424242", 9998, "USD", "20068"],
    ["4242424242424242", 4001, "USD", "40101"],
    ["4242424242424242", 2011, "USD", "200R1"],
  ];
  for (const [number, amount, currency, code] of cases) {
    const res = await s.cko("POST", "/payments", sale(number, { amount, currency }));
    t.match(res, { status: 201, body: { approved: false, status: "Declined", response_code: code } }, `${number}, ${amount} ${currency}: ${code}`);
  }
  const yen = await s.cko("POST", "/payments", sale("4242424242424242", { amount: 1005, currency: "JPY" }));
  t.match(yen.body, { approved: true }, "amounts trigger nothing in a currency without two decimals");
  const declined = await s.cko("POST", "/payments", sale("4544249167673670"));
  const [hook] = await s.hooks.waitFor(ofPayment(declined.body.id));
  t.match(hook.body, { type: "payment_declined", data: { response_code: "20051" } });
});

t.test("a bad request is refused 422 with Checkout's error codes, and nothing is taken", async (t) => {
  const s = await startDialectSim(t);
  const res = await s.cko("POST", "/payments", { amount: 0, currency: "usd" });
  t.match(res, {
    status: 422,
    body: { error_type: "request_invalid", error_codes: ["amount_invalid", "currency_invalid", "processing_channel_id_required", "payment_source_required"] },
  });
  t.match((await s.cko("POST", "/payments", sale("4242424242424241"))).body, { error_codes: ["card_number_invalid"] });
  t.match((await s.cko("POST", "/payments", sale("4242424242424242", { source: { ...card("4242424242424242"), expiry_year: 2020 } }))).body, {
    error_codes: ["card_expired"],
  });
  t.match((await s.cko("POST", "/payments", { ...payout("4921817844445119"), destination: card("4921817844445119") })).body, {
    error_codes: ["account_holder_required"],
  });
  const notJson = await fetch(`${s.sim.url}/checkout/payments`, { method: "POST", headers: { authorization: `Bearer ${CKO.secret_key}` }, body: "{" });
  t.equal(notJson.status, 422);
});

t.test("Cko-Idempotency-Key: the same body gets the same answer, another body 409, a concurrent one 429", async (t) => {
  const s = await startDialectSim(t);
  const body = sale("4242424242424242");
  const first = await s.cko("POST", "/payments", body, { "cko-idempotency-key": "idem-1" });
  const again = await s.cko("POST", "/payments", body, { "cko-idempotency-key": "idem-1" });
  t.equal(again.status, first.status);
  t.same(again.body, first.body, "the recorded answer");
  const other = await s.cko("POST", "/payments", { ...body, amount: 2000 }, { "cko-idempotency-key": "idem-1" });
  t.match(other, { status: 409, body: { error_type: String } });
  t.equal((await s.cko("GET", `/payments?reference=${body.reference}`)).body.total_count, 1, "one payment taken");

  const racing = sale("4242424242424242");
  const answers = await Promise.all(Array.from({ length: 6 }, () => s.cko("POST", "/payments", racing, { "cko-idempotency-key": "idem-race" })));
  const ids = new Set(answers.filter((a) => a.status === 201).map((a) => a.body.id));
  t.equal(ids.size, 1, "every 201 is the same payment");
  t.ok(
    answers.every((a) => a.status === 201 || a.status === 429),
    "the others are told 429",
  );
  t.equal((await s.cko("GET", `/payments?reference=${racing.reference}`)).body.total_count, 1, "one payment taken");

  await s.restart();
  t.same((await s.cko("POST", "/payments", body, { "cko-idempotency-key": "idem-1" })).body, first.body, "the answer survives a restart");
});

t.test("3-D Secure: 202 Pending with a redirect to the challenge page, which sends the customer back with cko-session-id", async (t) => {
  const s = await startDialectSim(t);
  for (const [button, url, status, approved] of [
    ["pass", "https://shop.example/ok", "Captured", true],
    ["fail", "https://shop.example/ko", "Declined", false],
  ] as const) {
    const res = await s.cko(
      "POST",
      "/payments",
      sale("4010061700000021", { "3ds": { enabled: true }, success_url: "https://shop.example/ok?x=1", failure_url: "https://shop.example/ko" }),
    );
    t.match(res, { status: 202, body: { status: "Pending", "3ds": { enrolled: "Y" } } });
    const challenge = res.body._links.redirect.href as string;
    t.match(challenge, new RegExp(`^${s.sim.url}/checkout/3ds/sid_`));
    const page = await fetch(challenge);
    t.equal(page.status, 200);
    t.match(await page.text(), /<button[^>]*id="pass"[\s\S]*id="fail"/, "the page offers both results");
    const back = await fetch(challenge, { method: "POST", body: new URLSearchParams({ result: button }), redirect: "manual" });
    t.equal(back.status, 303);
    const location = new URL(back.headers.get("location") ?? "");
    t.equal(`${location.origin}${location.pathname}`, url, `${button}: back to the ${button === "pass" ? "success" : "failure"} URL`);
    const sid = location.searchParams.get("cko-session-id") ?? "";
    t.match(sid, /^sid_[a-z2-7]{26}$/);
    const bySession = await s.cko("GET", `/payments/${sid}`);
    t.match(bySession.body, { id: res.body.id, status, approved }, `${button}: the payment by its session id`);
    const again = await fetch(challenge, { method: "POST", body: new URLSearchParams({ result: button === "pass" ? "fail" : "pass" }), redirect: "manual" });
    t.equal(new URL(again.headers.get("location") ?? "").pathname, location.pathname, "the first result stands");
    const hooks = await s.hooks.waitFor(ofPayment(res.body.id), approved ? 3 : 2);
    t.same(types(hooks), approved ? ["payment_pending", "payment_approved", "payment_captured"] : ["payment_pending", "payment_declined"]);
    if (!approved) t.match(bySession.body, { status: "Declined" });
  }
  const frictionless = await s.cko("POST", "/payments", sale("4242424242424242", { "3ds": { enabled: true } }));
  t.match(frictionless, { status: 201, body: { approved: true } }, "a frictionless card is approved at once");
  const plain = await s.cko("POST", "/payments", sale("4010061700000021"));
  t.match(plain, { status: 201, body: { approved: true } }, "without 3ds.enabled a challenge card is not challenged");
});

t.test("refunds: partial, partial, more than is left refused, the rest; a declined payment cannot be refunded", async (t) => {
  const s = await startDialectSim(t);
  const paid = await s.cko("POST", "/payments", sale("4242424242424242"));
  const id = paid.body.id;
  const r1 = await s.cko("POST", `/payments/${id}/refunds`, { amount: 300, reference: "rf-1" });
  t.match(r1, { status: 202, body: { action_id: /^act_/, reference: "rf-1", _links: { payment: { href: `${s.sim.url}/checkout/payments/${id}` } } } });
  t.match((await s.cko("GET", `/payments/${id}`)).body, { status: "Partially Refunded", balances: { total_refunded: 300, available_to_refund: 700 } });
  t.equal((await s.cko("POST", `/payments/${id}/refunds`, { amount: 200 })).status, 202);
  t.match(
    await s.cko("POST", `/payments/${id}/refunds`, { amount: 501 }),
    { status: 422, body: { error_codes: ["refund_amount_exceeds_balance"] } },
    "over the balance",
  );
  t.equal((await s.cko("POST", `/payments/${id}/refunds`, {})).status, 202, "no amount: all that is left");
  t.match((await s.cko("GET", `/payments/${id}`)).body, { status: "Refunded", balances: { total_refunded: 1000, available_to_refund: 0 } });
  t.match(await s.cko("POST", `/payments/${id}/refunds`, { amount: 1 }), { status: 403 }, "nothing left");
  const refunds = await s.hooks.waitFor((r) => r.body.type === "payment_refunded" && ofPayment(id)(r), 3);
  t.same(
    refunds.map((r) => (r.body.data as { amount: number }).amount),
    [300, 200, 500],
  );
  t.match(refunds[0].body, { data: { reference: "rf-1", action_id: r1.body.action_id } });

  const declined = await s.cko("POST", "/payments", sale("4544249167673670"));
  t.match(await s.cko("POST", `/payments/${declined.body.id}/refunds`, { amount: 100 }), { status: 403 });
  t.equal((await s.cko("POST", "/payments/pay_aaaaaaaaaaaaaaaaaaaaaaaaaa/refunds", {})).status, 404);
  const idem = { "cko-idempotency-key": "rf-idem" };
  const fresh = await s.cko("POST", "/payments", sale("4242424242424242"));
  const once = await s.cko("POST", `/payments/${fresh.body.id}/refunds`, { amount: 100 }, idem);
  t.same((await s.cko("POST", `/payments/${fresh.body.id}/refunds`, { amount: 100 }, idem)).body, once.body, "a refund's idempotency key");
  t.match((await s.cko("GET", `/payments/${fresh.body.id}`)).body, { balances: { total_refunded: 100 } }, "refunded once");
});

t.test("a payment's actions, latest first: each refund with its reference, found after its answer was lost", async (t) => {
  const s = await startDialectSim(t);
  const paid = await s.cko("POST", "/payments", sale("4242424242424242"));
  const id = paid.body.id;
  t.match((await s.cko("GET", `/payments/${id}/actions`)).body, [
    { type: "Capture", approved: true },
    { type: "Authorization", approved: true, reference: paid.body.reference },
  ]);
  const r1 = await s.cko("POST", `/payments/${id}/refunds`, { amount: 300, reference: "rf-a" });
  // The next refund is taken and its connection cut before any answer (a fault on its idempotency key).
  const fault = await fetch(`${s.sim.url}/admin/faults`, { method: "POST", body: JSON.stringify({ fault: "reset", idempotency_key: "rf-lost" }) });
  t.equal(fault.status, 201);
  const lost = fetch(`${s.sim.url}/checkout/payments/${id}/refunds`, {
    method: "POST",
    headers: { authorization: `Bearer ${CKO.secret_key}`, "content-type": "application/json", "cko-idempotency-key": "rf-lost" },
    body: JSON.stringify({ amount: 200, reference: "rf-b" }),
  });
  await t.rejects(lost, "no answer: the connection is cut");
  const listed = await s.cko("GET", `/payments/${id}/actions`);
  t.equal(listed.status, 200);
  t.match(listed.body, [
    { type: "Refund", amount: 200, reference: "rf-b", approved: true, response_code: "10000" },
    { id: r1.body.action_id, type: "Refund", amount: 300, reference: "rf-a", approved: true },
    { type: "Capture" },
    { type: "Authorization" },
  ]);
  const challenged = await s.cko("POST", "/payments", sale("4010061700000021", { "3ds": { enabled: true }, success_url: "https://shop.example/ok" }));
  t.same((await s.cko("GET", `/payments/${challenged.body.id}/actions`)).body, [], "a challenge still open: no action yet");
  const sid = /\/3ds\/(sid_\w{26})$/.exec(challenged.body._links.redirect.href)?.[1];
  t.equal((await s.cko("GET", `/payments/${sid}`)).status, 200, "a session id finds its payment...");
  t.equal((await s.cko("GET", `/payments/${sid}/actions`)).status, 404, "...but actions are listed by payment id only");
  t.equal((await s.cko("GET", "/payments/pay_aaaaaaaaaaaaaaaaaaaaaaaaaa/actions")).status, 404, "no such payment");
  const other = await fetch(`${s.sim.url}/checkout/payments/${id}/actions`, { headers: { authorization: "Bearer sk_sbox_not-this-account" } });
  t.equal(other.status, 401, "a key is required");
  const fiveHundred = await fetch(`${s.sim.url}/admin/faults`, { method: "POST", body: JSON.stringify({ fault: "5xx", idempotency_key: "rf-503" }) });
  t.equal(fiveHundred.status, 201);
  t.equal((await s.cko("POST", `/payments/${id}/refunds`, { amount: 100, reference: "rf-c" }, { "cko-idempotency-key": "rf-503" })).status, 503);
  t.notOk(
    ((await s.cko("GET", `/payments/${id}/actions`)).body as { reference?: string }[]).some((a) => a.reference === "rf-c"),
    "a 5xx fault takes no refund",
  );
});

t.test("card payouts: a payment with a destination, 202 Pending, then paid or declined by webhook", async (t) => {
  const s = await startDialectSim(t);
  const res = await s.cko("POST", "/payments", payout("4921817844445119"));
  t.match(res, { status: 202, body: { id: /^pay_/, status: "Pending", instruction: { value_date: String } } });
  const hooks = await s.hooks.waitFor(ofPayment(res.body.id), 2);
  t.same(types(hooks), ["payment_approved", "payment_paid"]);
  t.match((await s.cko("GET", `/payments/${res.body.id}`)).body, { status: "Paid", approved: true, destination: { type: "card" } });

  const declined = await s.cko("POST", "/payments", payout("4818192525595285"));
  t.equal(declined.status, 202);
  const [hook] = await s.hooks.waitFor(ofPayment(declined.body.id));
  t.match(hook.body, { type: "payment_declined", data: { response_code: "20005" } });
  t.match((await s.cko("GET", `/payments/${declined.body.id}`)).body, { status: "Declined", approved: false });
  t.match(await s.cko("POST", `/payments/${res.body.id}/refunds`, {}), { status: 403 }, "a payout is not refunded");
});

t.test("webhooks are retried with backoff until a 2xx, and survive a restart", async (t) => {
  const s = await startDialectSim(t);
  let failures = 3;
  s.hooks.answer = () => (failures-- > 0 ? { status: 500 } : { status: 200 });
  const res = await s.cko("POST", "/payments", sale("4544249167673670"));
  const attempts = await s.hooks.waitFor(ofPayment(res.body.id), 4);
  t.equal(new Set(attempts.map((a) => a.body.id)).size, 1, "the same event each time");
  t.equal(new Set(attempts.map((a) => a.raw)).size, 1, "the same bytes, the same signature");
  t.ok(await until(() => s.sim.pendingWebhooks().length === 0), "acknowledged at the fourth attempt");

  s.hooks.answer = () => ({ status: 503 });
  const later = await s.cko("POST", "/payments", sale("4544249167673670"));
  await s.hooks.waitFor(ofPayment(later.body.id));
  await s.restart();
  t.equal(s.sim.pendingWebhooks().length, 1, "the unacknowledged event is read back");
  s.hooks.answer = () => ({ status: 204 });
  const after = await s.hooks.waitFor(ofPayment(later.body.id), 2);
  t.equal(after[0].body.id, after[1].body.id, "sent again after the restart");
  t.ok(await until(() => s.sim.pendingWebhooks().length === 0));
  t.match((await s.cko("GET", `/payments/${later.body.id}`)).body, { status: "Declined" }, "the payment too");
});

t.test("faults: a timeout takes the payment and holds the answer; the lookup by reference finds it", async (t) => {
  const s = await startDialectSim(t);
  const body = sale("4242424242424242");
  const fault = await fetch(`${s.sim.url}/admin/faults`, {
    method: "POST",
    body: JSON.stringify({ fault: "timeout", idempotency_key: "to-1", delay_ms: 3000 }),
  });
  t.equal(fault.status, 201);
  const call = fetch(`${s.sim.url}/checkout/payments`, {
    method: "POST",
    headers: { authorization: `Bearer ${CKO.secret_key}`, "content-type": "application/json", "cko-idempotency-key": "to-1" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(300),
  });
  await t.rejects(call, { name: "TimeoutError" }, "the caller gives up");
  t.match((await s.cko("GET", `/payments?reference=${body.reference}`)).body, { total_count: 1, data: [{ status: "Captured" }] }, "taken all the same");
  const fiveHundred = await fetch(`${s.sim.url}/admin/faults`, { method: "POST", body: JSON.stringify({ fault: "5xx", card: "4242424242424242" }) });
  t.equal(fiveHundred.status, 201);
  const refused = sale("4242424242424242");
  t.equal((await s.cko("POST", "/payments", refused)).status, 503, "a 5xx fault");
  t.equal((await s.cko("GET", `/payments?reference=${refused.reference}`)).body.total_count, 0, "takes nothing");
});

async function until(fn: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (!fn()) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}
