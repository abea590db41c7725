/**
 * The platform stub checks Cashier's callbacks, so it is checked first: over real HTTP, with requests
 * signed here by hand (node:crypto), it records and answers each kind, refuses bad signatures, signs its
 * Validation reply, plays scripted replies, and times out with a message that says what did arrive.
 */
import t from "tap";
import { randomUUID } from "node:crypto";
import { canonicalString, startPlatformStub, type PlatformStub } from "../../support/platform-stub.ts";
import { headerSignature as signedHeader, hmacHex, signatureOf, type Body } from "../../support/signer.ts";

const SECRET = "stub-secret-0123456789";
const OTHER = "other-secret-9876543210";

let stub: PlatformStub;
t.before(async () => {
  stub = await startPlatformStub({ secrets: { "m-test": SECRET, "m-other": OTHER } });
});
t.teardown(() => stub.close());
t.beforeEach(() => stub.clear());

const hmac = hmacHex;
const signBody = (body: Body, secret = SECRET): Body => ({ ...body, signature: signatureOf(body, secret) });
const headerSignature = (raw: string, secret = SECRET, t?: number) => signedHeader(raw, secret, t);

async function post(path: string, raw: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${stub.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-cashier-event-id": randomUUID(), ...headers },
    body: raw,
  });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { http: res.status, text, body };
}

const validationBody = () => ({
  transaction_type: "sale",
  transaction_status: "pending",
  transaction_id: null,
  trace_id: 1042,
  order_id: "ord-1001",
  frontend: "test-usd",
  pin: "cust-42",
  amount: 1050,
  currency: "USD",
  payment_method: "CreditCard",
  created_by: "api",
  auth_token: "Zq3".padEnd(43, "x"),
  merchant_id: "m-test",
  version: "1.0",
  timestamp: "1795000000",
});
const notificationBody = () => ({
  status: 0,
  description: "Approved",
  redirect_url: null,
  trace_id: 1043,
  transaction_id: "sim-b-a1795000003000-9f2c4e",
  transaction_status: "approved",
  error_code: null,
  error_details: null,
  payment_processor: "sim-b",
  version: "1.0",
  order_id: "ord-1001",
  transaction_type: "sale",
  amount: 1050,
  currency: "USD",
});
const updatePayoutRaw = () =>
  '{"PIN":"cust-42","SiteID":7,"FrontEndName":"test-usd","TraceID":1050,"ExtPayoutID":"po-77",' +
  '"Status":"Y","PP":"sim-a","TransactionID":"sim-a-a1","UpdatedBy":"system","Amount":25.00,"Currency":"USD","Fee":0.00}';
const rfdRaw = () =>
  '{"PIN":"cust-42","SiteID":7,"FrontEndName":"test-usd","Currency":"USD","TraceID":1044,"Amount":10.50,' +
  '"errorCode":"05","errorDesc":"Do not honour","CardNumber":"400000******0002"}';

const sendValidation = (body: Body = signBody(validationBody()), headers: Record<string, string> = { "x-cashier-merchant-id": "m-test" }) =>
  post("/api/validation", JSON.stringify(body), headers);
const sendNotification = (body: Body = signBody(notificationBody()), path = "/notify") =>
  post(path, JSON.stringify(body), { "x-cashier-merchant-id": "m-test" });
const sendUpdatePayout = (raw = updatePayoutRaw(), signature = headerSignature(raw)) =>
  post("/api/UpdatePayout", raw, { "x-cashier-merchant-id": "m-test", "x-cashier-signature": signature });
const sendRfd = (raw = rfdRaw(), signature = headerSignature(raw)) =>
  post("/RecordFailedDeposit", raw, { "x-cashier-merchant-id": "m-test", "x-cashier-signature": signature });

t.test("the canonical string and HMAC reproduce the CONTRACT section 2 test vector", async (t) => {
  const body = {
    merchant_id: "m-demo",
    frontend: "demo-usd",
    order_id: "ord-1001",
    transaction_type: "sale",
    amount: 1050,
    currency: "USD",
    card_number: "4111111111111111",
    cvv: "123",
    card_exp: "12/2030",
    pin: "cust-42",
    email: "jane@example.com",
    first_name: "Jane",
    last_name: "Doe",
    country: "GB",
    state: null,
    zip: "SW1A1AA",
    return_url: "https://merchant.example/return",
    timestamp: 1795000000,
    version: "1.0",
  };
  const canonical = canonicalString(body);
  t.equal(
    canonical,
    "amount=1050&card_exp=12/2030&card_number=4111111111111111&country=GB&currency=USD&cvv=123&" +
      "email=jane@example.com&first_name=Jane&frontend=demo-usd&last_name=Doe&merchant_id=m-demo&order_id=ord-1001&" +
      "pin=cust-42&return_url=https://merchant.example/return&timestamp=1795000000&transaction_type=sale&version=1.0&zip=SW1A1AA",
  );
  t.equal(hmac("demo-secret-change-me", canonical), "bd92008aea766918734bf8b6fadab4bddbf2068a983a6d77b09c4de353321c19ed319b1555ab30a08e6680c361f15635");

  const vstub = await startPlatformStub({ secrets: { "m-demo": "demo-secret-change-me" } });
  t.teardown(() => vstub.close());
  const res = await fetch(`${vstub.url}/notify`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      ...body,
      signature: "bd92008aea766918734bf8b6fadab4bddbf2068a983a6d77b09c4de353321c19ed319b1555ab30a08e6680c361f15635".toUpperCase(),
    }),
  });
  t.equal(res.status, 200, "the vector's signature (upper case) is accepted by the server");
  t.equal(vstub.received()[0].signatureValid, true);
});

t.test("the canonical string: code-unit order, booleans, numbers, empty strings; objects refused", async (t) => {
  t.equal(canonicalString({ b: true, B: false, a: 1.5, _: "", Z: -0.25, signature: "x", n: null }), "B=false&Z=-0.25&_=&a=1.5&b=true");
  t.throws(() => canonicalString({ a: { b: 1 } }), /member a is an object/);
  t.throws(() => canonicalString({ a: [1] }), /member a is an array/);
});

t.test("a signed Validation is recorded valid and answered with a signed ok", async (t) => {
  const eventId = randomUUID();
  const r = await post("/api/validation", JSON.stringify(signBody(validationBody())), { "x-cashier-merchant-id": "m-test", "x-cashier-event-id": eventId });
  t.equal(r.http, 200);
  t.equal(r.body.status, 0);
  t.equal(r.body.description, "ok");
  t.equal(r.body.version, "1.0");
  t.match(r.body.timestamp, /^\d+$/);
  t.ok(Math.abs(Number(r.body.timestamp) - Date.now() / 1000) < 5, "timestamp is now");
  t.equal(r.body.signature, hmac(SECRET, canonicalString(r.body)), "reply signature verifies with the merchant secret");
  const [call] = stub.received("validation");
  t.equal(call.signatureValid, true);
  t.equal(call.signatureError, undefined);
  t.equal(call.merchantId, "m-test");
  t.equal(call.eventId, eventId);
  t.equal(call.path, "/api/validation");
  t.equal(call.headers["x-cashier-merchant-id"], "m-test");
  t.equal((call.body as any).trace_id, 1042);
  t.same(JSON.parse(call.rawBody), call.body);
  t.ok(call.receivedAt instanceof Date);
  t.same(call.reply, { httpStatus: 200, body: r.body });
});

t.test("the Validation merchant comes from the body, else from the header; a disagreement is refused", async (t) => {
  const noId: Body = validationBody();
  delete noId.merchant_id;
  t.equal((await sendValidation(signBody(noId))).http, 200, "header names the merchant");
  t.equal((await sendValidation(signBody(validationBody()), {})).http, 200, "body names the merchant");
  const r = await sendValidation(signBody(validationBody()), { "x-cashier-merchant-id": "m-other" });
  t.equal(r.http, 401);
  t.match(stub.received()[2].signatureError, /differs from X-Cashier-Merchant-Id/);
});

t.test("a signed notification of any /notify path is recorded valid and answered received", async (t) => {
  const r = await sendNotification(undefined, "/notify/ord-1001?x=1");
  t.equal(r.http, 200);
  t.same(r.body, { status: 0, description: "received" });
  const [call] = stub.received("notification");
  t.equal(call.signatureValid, true);
  t.equal(call.merchantId, "m-test", "from the header: a notification has no merchant_id");
  t.equal(call.path, "/notify/ord-1001?x=1");
});

t.test("a signed UpdatePayout is verified on the raw bytes and answered ok", async (t) => {
  const raw = updatePayoutRaw();
  t.match(raw, /"Amount":25\.00/, "the raw text keeps 25.00, which JSON.parse would not");
  const r = await sendUpdatePayout(raw);
  t.equal(r.http, 200);
  t.same(r.body, { status: 0, description: "ok" });
  const [call] = stub.received("update_payout");
  t.equal(call.signatureValid, true);
  t.equal(call.rawBody, raw);
  t.equal((call.body as any).Amount, 25);
  t.equal(call.merchantId, "m-test");
});

t.test("a signed RecordFailedDeposit is answered with capitalised names", async (t) => {
  const r = await sendRfd();
  t.equal(r.http, 200);
  t.same(r.body, { Status: 0, Description: "recorded" });
  t.equal(stub.received("record_failed_deposit")[0].signatureValid, true);
  const prefixed = await post("/m-test/RecordFailedDeposit", rfdRaw(), { "x-cashier-merchant-id": "m-test", "x-cashier-signature": headerSignature(rfdRaw()) });
  t.equal(prefixed.http, 200, "a platform_url with a path prefix reaches it too");
});

t.test("wrong signatures are recorded invalid and answered 401 status 4", async (t) => {
  const wrongBody = signBody(validationBody(), OTHER);
  t.same((await sendValidation(wrongBody)).body, { status: 4, description: "signature invalid" });
  const tampered = { ...signBody(notificationBody()), amount: 1 };
  const n = await sendNotification(tampered);
  t.equal(n.http, 401);
  t.same(n.body, { status: 4, description: "signature invalid" });
  const raw = updatePayoutRaw();
  // The same JSON value with other bytes (25.0 instead of 25.00): the raw bytes are what is signed.
  const u = await sendUpdatePayout(raw.replace("25.00", "25.0"), headerSignature(raw));
  t.equal(u.http, 401);
  t.same(u.body, { status: 4, description: "signature invalid" });
  const f = await sendRfd(rfdRaw(), headerSignature(rfdRaw(), OTHER));
  t.equal(f.http, 401);
  t.same(f.body, { Status: 4, Description: "signature invalid" });
  const calls = stub.received();
  t.same(
    calls.map((c) => c.signatureValid),
    [false, false, false, false],
  );
  t.same(
    calls.map((c) => c.signatureError),
    Array(4).fill("signature does not match"),
  );
  t.same(
    calls.map((c) => c.reply.httpStatus),
    [401, 401, 401, 401],
  );
});

t.test("other signature faults are named", async (t) => {
  const noSig = await sendNotification(notificationBody());
  t.equal(noSig.http, 401);
  await sendNotification({ ...notificationBody(), signature: "abc" });
  await post("/notify", "not json", { "x-cashier-merchant-id": "m-test" });
  await post("/notify", JSON.stringify(signBody(notificationBody())), { "x-cashier-merchant-id": "m-nobody" });
  await post("/api/UpdatePayout", updatePayoutRaw(), { "x-cashier-merchant-id": "m-test" });
  const signedAt = Math.floor(Date.now() / 1000) - 3600;
  await sendUpdatePayout(updatePayoutRaw(), headerSignature(updatePayoutRaw(), SECRET, signedAt));
  // The stub reads its clock when the request arrives: a second later on a busy machine.
  const checkedBy = Math.floor(Date.now() / 1000);
  await sendUpdatePayout(updatePayoutRaw(), "v1=abc");
  await post("/RecordFailedDeposit", rfdRaw(), { "x-cashier-signature": headerSignature(rfdRaw()) });
  const errors = stub.received().map((c) => c.signatureError);
  t.match(errors, [
    /no signature member/,
    /does not match/,
    /not a JSON object/,
    /unknown merchant m-nobody/,
    /no X-Cashier-Signature header/,
    /^X-Cashier-Signature t is \d+ s from the clock \(tolerance 300 s\)$/,
    /no t=/,
    /no X-Cashier-Merchant-Id/,
  ]);
  const skew = Number(/t is (\d+) s/.exec(errors[5] ?? "")?.[1]);
  t.ok(skew >= 3600 && skew <= checkedBy - signedAt, `the skew named is the real one: ${skew} s, signed 3600 s before the request`);
  t.equal(stub.received()[2].body, undefined, "an unparsable body is recorded as undefined");
  t.equal(stub.received()[2].rawBody, "not json");
});

t.test("scripts are used in order, then the default", async (t) => {
  stub.script("notification", { status: 1, description: "try later", httpStatus: 503 }, { status: -1 });
  stub.script("notification", { description: "third" });
  const replies = [];
  for (let i = 0; i < 4; i++) replies.push(await sendNotification());
  t.same(
    replies.map((r) => r.http),
    [503, 200, 200, 200],
  );
  t.same(
    replies.map((r) => r.body),
    [
      { status: 1, description: "try later" },
      { status: -1, description: "received" },
      { status: 0, description: "third" },
      { status: 0, description: "received" },
    ],
  );
  stub.script("record_failed_deposit", { status: -5, description: "db down" });
  t.same((await sendRfd()).body, { Status: -5, Description: "db down" });
  t.same((await sendRfd()).body, { Status: 0, Description: "recorded" });
});

t.test("a script on an invalid request overrides the 401 member by member", async (t) => {
  stub.script("notification", { httpStatus: 200 });
  const r = await sendNotification({ ...signBody(notificationBody()), amount: 2 });
  t.equal(r.http, 200);
  t.same(r.body, { status: 4, description: "signature invalid" });
  t.equal(stub.received()[0].signatureValid, false);
});

t.test("scripted Validation replies: rejection, bad and missing signature, extra members", async (t) => {
  stub.script("validation", { status: 3, description: "customer blocked" }, { badSignature: true }, { omitSignature: true }, { members: { reference: "r-1" } });
  const rejected = await sendValidation();
  t.equal(rejected.body.status, 3);
  t.equal(rejected.body.description, "customer blocked");
  t.equal(rejected.body.signature, hmac(SECRET, canonicalString(rejected.body)), "a rejection is signed too");
  const bad = await sendValidation();
  t.match(bad.body.signature, /^[0-9a-f]{96}$/);
  t.not(bad.body.signature, hmac(SECRET, canonicalString(bad.body)), "badSignature signs wrongly");
  const none = await sendValidation();
  t.notOk("signature" in none.body);
  const extra = await sendValidation();
  t.equal(extra.body.reference, "r-1");
  t.equal(extra.body.signature, hmac(SECRET, canonicalString(extra.body)), "extra members are signed");
});

t.test("raw, httpStatus and delayMs behave", async (t) => {
  stub.script("update_payout", { raw: "not json", httpStatus: 502 }, { delayMs: 300 });
  const r = await sendUpdatePayout();
  t.equal(r.http, 502);
  t.equal(r.text, "not json");
  t.equal(stub.received()[0].reply.body, "not json");
  const started = Date.now();
  const slow = await sendUpdatePayout();
  t.ok(Date.now() - started >= 280, `answered after ${Date.now() - started} ms`);
  t.same(slow.body, { status: 0, description: "ok" });
  t.equal(stub.received()[1].reply.delayMs, 300);
});

t.test("hang accepts the call, never answers, and close() releases it", async (t) => {
  const hstub = await startPlatformStub({ secrets: { "m-test": SECRET } });
  hstub.script("validation", { hang: true });
  const validation = () =>
    fetch(`${hstub.url}/api/validation`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(signBody(validationBody())),
    });
  let outcome = "still waiting";
  const pending = validation().then(
    () => "answered",
    () => "connection closed",
  );
  void pending.then((o) => (outcome = o));
  const [call] = await hstub.waitFor("validation", undefined, { timeoutMs: 2000 });
  t.equal(call.reply.hang, true);
  t.equal(call.reply.httpStatus, null);
  // A later call (its script used up: the default reply) is answered in full: the stub answers a call as it records
  // it, so the first would have been answered by now had it not been left hanging.
  const later = await validation();
  t.equal(later.status, 200, "a later call is answered");
  await later.text();
  t.equal(outcome, "still waiting");
  const closing = Date.now();
  await hstub.close();
  t.equal(await pending, "connection closed");
  t.ok(Date.now() - closing < 2000, "close() does not wait for the hanging call");
});

t.test("waitFor counts matches, takes a predicate, and times out naming what arrived", async (t) => {
  const waiting = stub.waitFor("notification", (c) => (c.body as any)?.transaction_status === "approved", { count: 2 });
  await sendNotification();
  await sendNotification({ ...signBody({ ...notificationBody(), transaction_status: "declined" }) });
  await sendNotification();
  const calls = await waiting;
  t.equal(calls.length, 2);
  t.ok(calls.every((c) => (c.body as any).transaction_status === "approved"));
  t.equal((await stub.waitFor("notification", { count: 3 })).length, 3, "already received calls count; options as 2nd argument");

  const err = await stub.waitFor("update_payout", undefined, { timeoutMs: 200 }).then(
    () => null,
    (e: Error) => e,
  );
  t.ok(err);
  t.match(err!.message, /timed out after 200 ms waiting for 1 update_payout call\(s\); 0 matched/);
  t.match(err!.message, /Received 3 call\(s\)/);
  t.match(err!.message, /notification \/notify merchant=m-test event=[0-9a-f-]{36} signature ok body=\{"status":0/);
  stub.clear();
  const none = await stub
    .waitFor("validation", () => false, { timeoutMs: 50 })
    .then(
      () => null,
      (e: Error) => e,
    );
  t.match(none!.message, /matching the predicate; 0 matched\. Received no calls at all\./);
});

t.test("the return page, /events and unknown routes", async (t) => {
  const page = await fetch(`${stub.url}/return/ord-1001?trace_id=7&status=<ok>`);
  t.equal(page.status, 200);
  t.match(page.headers.get("content-type"), /text\/html/);
  const html = await page.text();
  t.match(html, /<h1>Back at the merchant<\/h1>/);
  t.match(html, /trace_id=7&amp;status=%3Cok%3E/, "the query string is shown as sent, escaped");
  t.match(html, /<code>status<\/code> = <code>&lt;ok&gt;<\/code>/, "and each parameter decoded, escaped");
  t.equal((await fetch(`${stub.url}/return`)).status, 200);

  await sendRfd();
  const events = (await (await fetch(`${stub.url}/events`)).json()) as { kind: string; signatureValid: boolean }[];
  t.equal(events.length, 1);
  t.equal(events[0].kind, "record_failed_deposit");
  t.equal(events[0].signatureValid, true);

  for (const [method, path] of [
    ["GET", "/nope"],
    ["POST", "/nope"],
    ["GET", "/api/validation"],
    ["POST", "/events"],
  ]) {
    const r = await fetch(`${stub.url}${path}`, { method });
    t.equal(r.status, 404, `${method} ${path}`);
    t.match(await r.json(), { error: "not found", path });
  }
});
