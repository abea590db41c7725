/**
 * POST /api/process over real HTTP, through the real engine over gRPC, on a
 * real Postgres: the classes of CONTRACT section 3, the simulator's cards,
 * signatures, idempotency and refunds, as a platform sees them.
 */
import t from "tap";
import { useService } from "../support/service.ts";
import { OTHER_SECRET } from "../support/merchants.ts";
import { orderId, post, processSale as process, replySigned, saleBody, sign } from "../support/wire.ts";

const service = useService(t);

const url = () => service().edgeUrl;

t.test("an approved sale answers the signed seed 2.2 reply", async (t) => {
  const r = await process(url());
  t.equal(r.http, 200);
  t.equal(r.body.status, 0);
  t.equal(r.body.transaction_status, "approved");
  t.equal(r.body.payment_processor, "sim-a");
  t.equal(r.body.redirect_url, null);
  t.equal(r.body.error_code, null);
  t.equal(r.body.version, "1.0");
  t.ok(Number.isInteger(r.body.trace_id) && r.body.trace_id > 0 && r.body.trace_id < 2 ** 31, "trace_id below 2^31");
  t.match(r.body.transaction_id, /\S+/);
  t.ok(replySigned(r.body), "reply signed with the merchant secret");
  t.same(Object.keys(r.body).sort(), [
    "description",
    "error_code",
    "error_details",
    "payment_processor",
    "redirect_url",
    "signature",
    "status",
    "trace_id",
    "transaction_id",
    "transaction_status",
    "version",
  ]);
});

t.test("the simulator's cards answer their first status", async (t) => {
  const cases: [string, string, number | null, string | null][] = [
    ["5555555555554444", "approved", null, null],
    ["4000000000000002", "declined", 5, "05"],
    ["4000000000009995", "declined", 51, "51"],
    ["4000000000000119", "declined", 9001, null],
    ["4000000000003220", "pending_async", null, null],
    ["4000000000000077", "pending", null, null],
    ["4000000000000259", "declined_retry", 91, "91"],
    ["4000000000000341", "declined_retry", 91, "91"],
  ];
  for (const [card, status, code, detailsPrefix] of cases) {
    const r = await process(url(), { card_number: card });
    t.equal(r.http, 200, `${card} http`);
    t.equal(r.body.status, 0, `${card} status`);
    t.equal(r.body.transaction_status, status, `${card} transaction_status`);
    t.equal(r.body.error_code, code, `${card} error_code`);
    if (detailsPrefix) t.match(r.body.error_details, new RegExp(`^${detailsPrefix} `), `${card} error_details`);
    t.ok(replySigned(r.body), `${card} signed`);
    if (card === "4000000000000119") t.equal(r.body.transaction_id, "", "unavailable: empty transaction_id");
    if (card === "4000000000003220") t.match(r.body.redirect_url, new RegExp(`^${url()}/3ds/${r.body.trace_id}/[0-9a-f]+$`));
    else t.equal(r.body.redirect_url, null, `${card} no redirect`);
  }
});

t.test("a merchant with one processor ends the cascade card declined", async (t) => {
  const r = await process(url(), { merchant_id: "m-single", frontend: "single-usd", card_number: "4000000000000341" });
  t.equal(r.body.transaction_status, "declined");
  t.equal(r.body.error_code, 91);
});

t.test("the processor's deposit state is recorded: N for declines, E for errors", async (t) => {
  const n = await process(url(), { card_number: "4000000000000002" });
  const e = await process(url(), { card_number: "4000000000000119" });
  const rows = await service().sql<{ trace_id: number; deposit_state: string }>(
    "select trace_id, deposit_state from transaction where trace_id = any($1) order by trace_id",
    [[n.body.trace_id, e.body.trace_id]],
  );
  t.same(
    rows.map((r) => r.deposit_state),
    ["N", "E"],
  );
});

t.test("every offending field is named at once, 400 with a positive status", async (t) => {
  const r = await process(url(), {
    card_number: "4111111111111112",
    card_exp: "13/2030",
    email: "not-an-email",
    country: "US",
    zip: "",
    phone: "123456",
    dob: "02/30/1990",
    currency: "XYZ",
  });
  t.equal(r.http, 400);
  t.equal(r.body.status, 2);
  t.ok(r.body.description.length <= 256, "within the seed's varchar(256)");
  for (const field of ["card_number", "card_exp", "email", "state", "zip", "phone", "dob", "currency"]) {
    t.match(r.body.description, new RegExp(`\\b${field}\\b`), `names ${field}`);
  }
  t.match(r.body.description, /card_number: fails the Luhn check/, "with the reasons that fit");
  t.ok(replySigned(r.body), "a refusal tied to a merchant is signed");
  t.equal(r.body.trace_id, null);
});

t.test("field rules of seed 2.1 and CONTRACT section 3", async (t) => {
  const bad: [string, Record<string, unknown>][] = [
    ["card_number", { card_number: "41111111111" }],
    ["card_exp", { card_exp: "01/2020" }],
    ["card_exp", { card_exp: "2030-12" }],
    ["cvv", { cvv: "" }],
    ["cvv", { cvv: "12a" }],
    ["phone", { phone: "1111111" }],
    ["phone", { phone: "987654" }],
    ["phone", { phone: "12-34-56" }],
    ["dob", { dob: "01/01/2999" }],
    ["country", { country: "XX" }],
    ["country", { country: "gb" }],
    ["state", { state: "NY" }],
    ["state", { country: "CA", zip: "K1A0B1", state: "" }],
    ["zip", { zip: "SW1A 1AA" }],
    ["zip", { zip: "1234567890123" }],
    ["currency", { currency: "GBP" }],
    ["frontend", { frontend: "nope" }],
    ["frontend", { frontend: "other-usd" }],
    ["amount", { amount: 0 }],
    ["amount", { amount: -5 }],
    ["version", { version: "2.0" }],
    ["transaction_type", { transaction_type: "capture" }],
    ["reference_id", { transaction_type: "refund", reference_id: "" }],
    ["first_name", { first_name: "x".repeat(26) }],
    ["pin", { pin: "" }],
    ["return_url", { return_url: "javascript:alert(1)" }],
    ["requester_ip", { requester_ip: "999.1.1.1" }],
    ["email", { email: "" }],
    ["dob", { dob: new Date().toISOString().slice(0, 10) }],
    ["first_name", { first_name: "\u{1F600}".repeat(26) }],
  ];
  for (const [field, over] of bad) {
    const r = await process(url(), over);
    t.equal(r.http, 400, `${field} ${JSON.stringify(over)} -> 400`);
    t.ok(r.body.status > 0, "positive status");
    t.match(r.body.description, new RegExp(`\\b${field}: `), `names ${field}: ${r.body.description}`);
  }
  const ok: Record<string, unknown>[] = [
    { phone: 447911123456 },
    { phone: "447911123456" },
    { dob: "1990-02-28" },
    { dob: "02/28/1990" },
    { country: "US", state: "NY", zip: "10001" },
    { country: "AU", state: "NS", zip: "" },
    { requester_ip: "2001:db8::1" },
    { currency: "JPY", amount: 1000 },
    { currency: "BHD", amount: 5 },
    { first_name: "\u{1F600}".repeat(25) },
  ];
  for (const over of ok) {
    const r = await process(url(), over);
    t.equal(r.http, 200, `${JSON.stringify(over)} accepted: ${r.body.description}`);
  }
});

t.test("wrong JSON types are named, never a 5xx", async (t) => {
  const r = await post(url(), sign(saleBody({ amount: "10.50", timestamp: "now", card_number: 4111111111111111, phone: "" })));
  t.equal(r.http, 400);
  t.match(r.body.description, /amount: must be a JSON integer/);
  t.match(r.body.description, /card_number: must be a JSON string/);
  const nested = await post(url(), sign(saleBody({ address: { street: "x" } as unknown as string })));
  t.equal(nested.http, 400);
  t.match(nested.body.description, /address: must be a scalar/);
  const floaty = await post(url(), sign(saleBody({ amount: 10.5 })));
  t.equal(floaty.http, 400);
  t.match(floaty.body.description, /amount: must be a JSON integer/);
  t.ok(replySigned(floaty.body), "refused in the engine's words, signed for the merchant it names");
  const cents = await post(url(), sign(saleBody({ currency: "ISK", amount: 1050 })));
  t.equal(cents.http, 400);
  t.match(cents.body.description, /^amount: ISK has 0 decimals: the amount in cents must be a multiple of 100$/);
  t.ok(replySigned(cents.body));
  const noMerchant = await post(url(), sign(saleBody({ merchant_id: 7 as unknown as string, amount: "1" })));
  t.equal(noMerchant.http, 400);
  t.match(noMerchant.body.description, /merchant_id: must be a JSON string/);
  t.equal(noMerchant.body.signature, null, "a merchant_id that is no string names no merchant");
});

t.test("bodies that are not JSON objects, too large or of another type", async (t) => {
  const notJson = await post(url(), null, { raw: "{not json" });
  t.equal(notJson.http, 400);
  t.equal(notJson.body.status, 1);
  t.equal(notJson.body.signature, null, "unparsable: cannot be tied to a merchant");
  for (const raw of ["[1,2]", "42", '"x"', "null"]) {
    const r = await post(url(), null, { raw });
    t.equal(r.http, 400, `${raw} -> 400`);
    t.equal(r.body.status, 1);
  }
  const big = await post(url(), sign(saleBody({ address: "x".repeat(70 * 1024) })));
  t.equal(big.http, 413);
  t.equal(big.body.status, 7);
  const form = await post(url(), saleBody(), { contentType: "application/x-www-form-urlencoded" });
  t.equal(form.http, 415);
  t.equal(form.body.status, 8);
  const none = await fetch(`${url()}/api/process`, { method: "POST", body: "{}" });
  t.equal(none.status, 415);
  t.equal(none.headers.get("cache-control"), "no-store", "no cache keeps a refusal");
  const approved = await fetch(`${url()}/api/process`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(sign(saleBody())),
  });
  t.equal(approved.status, 200);
  t.equal(approved.headers.get("cache-control"), "no-store", "nor a processed reply");
  const utf8 = await post(url(), sign(saleBody()), { contentType: "application/json; charset=UTF-8" });
  t.equal(utf8.http, 200, "charset=UTF-8 is JSON's own");
  const ascii = await post(url(), sign(saleBody()), { contentType: "application/json; charset=us-ascii" });
  t.equal(ascii.http, 200, "charset=us-ascii: UTF-8's first 128 code points");
  const latin1 = await post(url(), sign(saleBody()), { contentType: "application/json; charset=latin1" });
  t.equal(latin1.http, 415, "another charset is refused, not read as UTF-8");
  t.equal(latin1.body.status, 8);
  t.match(latin1.body.description, /charset must be utf-8/);
  // J, a byte that is no UTF-8, ne: once read as U+FFFD and processed (signed over "J\uFFFDne").
  const body = JSON.stringify(sign(saleBody({ first_name: "J\uFFFDne" })));
  const bytes = Buffer.from(body, "utf8");
  const at = bytes.indexOf(Buffer.from("J\uFFFDne", "utf8"));
  const bad = Buffer.concat([bytes.subarray(0, at + 1), Buffer.from([0xff]), bytes.subarray(at + 4)]);
  const res = await fetch(`${url()}/api/process`, { method: "POST", headers: { "content-type": "application/json" }, body: bad });
  const reply = (await res.json()) as { status: number; description: string };
  t.equal(res.status, 400, "a body that is not UTF-8 is refused");
  t.equal(reply.status, 1);
  t.match(reply.description, /not valid UTF-8/);
  // A member sent twice: JSON.parse keeps the last, another reader the first. The signature
  // is right for the last value, so before the refusal this sale was approved at 99999.
  const signed = sign(saleBody({ amount: 99999, order_id: "ord-dup-member" }));
  const text = JSON.stringify(signed).replace('"amount":99999', '"amount":1,"amount":99999');
  const twice = await fetch(`${url()}/api/process`, { method: "POST", headers: { "content-type": "application/json" }, body: text });
  const twiceReply = (await twice.json()) as { status: number; description: string; signature: unknown };
  t.equal(twice.status, 400, "a member sent twice is refused");
  t.equal(twiceReply.status, 1);
  t.match(twiceReply.description, /member amount appears more than once/);
  const after = await post(url(), sign(saleBody({ amount: 1, order_id: "ord-dup-member" })));
  t.equal(after.http, 200, "and it processed nothing: the order id is still free, for another amount too");
});

t.test("authentication: unknown merchant, bad or short signature, stale timestamp", async (t) => {
  const unknown = await post(url(), sign(saleBody({ merchant_id: "m-nobody" })));
  t.equal(unknown.http, 401);
  t.equal(unknown.body.status, 3);
  t.equal(unknown.body.signature, null);

  const wrongKey = await post(url(), sign(saleBody(), OTHER_SECRET));
  t.equal(wrongKey.http, 401);
  t.equal(wrongKey.body.status, 4);

  for (const signature of ["abc", "", "z".repeat(96), "0".repeat(200)]) {
    const r = await post(url(), { ...saleBody(), signature });
    t.ok(r.http === 401 || r.http === 400, `signature ${JSON.stringify(signature.slice(0, 8))} -> ${r.http}`);
    t.ok(r.body.status > 0);
  }

  const body = saleBody();
  const upper = sign(body);
  const accepted = await post(url(), { ...upper, signature: String(upper.signature).toUpperCase() });
  t.equal(accepted.http, 200, "either hex case is accepted");

  const tampered = sign(saleBody());
  const changed = await post(url(), { ...tampered, amount: 99999 });
  t.equal(changed.http, 401, "a changed member breaks the signature");

  const old = await post(url(), sign(saleBody({ timestamp: Math.floor(Date.now() / 1000) - 120 })));
  t.equal(old.http, 401);
  t.equal(old.body.status, 5);
  const future = await post(url(), sign(saleBody({ timestamp: Math.floor(Date.now() / 1000) + 120 })));
  t.equal(future.http, 401);
  const nearly = await post(url(), sign(saleBody({ timestamp: Math.floor(Date.now() / 1000) - 50 })));
  t.equal(nearly.http, 200, "50 s old is inside the window");

  const noSig = await post(url(), saleBody());
  t.equal(noSig.http, 401, "a request naming its merchant but unsigned is unauthenticated");
  t.equal(noSig.body.status, 4);
  t.match(noSig.body.description, /signature is required/);
  const noSigNoMerchant = await post(url(), { ...saleBody(), merchant_id: "m-nobody" });
  t.equal(noSigNoMerchant.http, 401, "unsigned, naming no merchant: unauthenticated");
  t.equal(noSigNoMerchant.body.status, 3, "and refused for the merchant, the first cause to mend");
  t.match(noSigNoMerchant.body.description, /Unknown merchant_id/);
  t.equal(noSigNoMerchant.body.signature, null);
  const noMerchant = await post(url(), { ...saleBody(), merchant_id: undefined, signature: "x" });
  t.equal(noMerchant.http, 400);
  t.match(noMerchant.body.description, /merchant_id: is required/);
  t.equal(noMerchant.body.signature, null);

  // The window is counted in whole seconds: should the second turn between reading the clock and the engine's check,
  // the request was 61 s old when checked, and is sent again. A refusal within one second is never sent again.
  let exactly: Awaited<ReturnType<typeof post>>;
  for (let tries = 1; ; tries++) {
    const edge = Math.floor(Date.now() / 1000);
    exactly = await post(url(), sign(saleBody({ timestamp: edge - 60 })));
    if (exactly.http !== 401 || Math.floor(Date.now() / 1000) === edge || tries === 3) break;
  }
  t.equal(exactly.http, 200, "exactly 60 s old is inside the window, as 60 s ahead is");
});

t.test("control characters are a 400 naming the field, never a 5xx", async (t) => {
  for (const field of ["order_id", "first_name", "pin", "return_url", "merchant_id", "address"]) {
    const r = await process(url(), { [field]: "a\u0000b" });
    t.equal(r.http, 400, `${field} with NUL -> 400`);
    t.match(r.body.description, new RegExp(`${field}: must not contain control characters`));
  }
  const nl = await process(url(), { city: "Lon\ndon" });
  t.equal(nl.http, 400);
  // Named beside the request's other faults, not alone.
  const several = await process(url(), { first_name: "A\u0001", country: "XX", cvv: "1" });
  t.equal(several.http, 400);
  t.match(several.body.description, /first_name: must not contain control characters/);
  t.match(several.body.description, /country: must be an ISO 3166-1 alpha-2 code/);
  t.match(several.body.description, /cvv: /);
  // C1 controls too: U+009B is a terminal's escape (CSI) in a log or an operator's shell.
  for (const c of ["\u007f", "\u0085", "\u009b"]) {
    const r = await process(url(), { order_id: `ord-c1${c}x` });
    t.equal(r.http, 400, `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")} -> 400`);
    t.match(r.body.description, /order_id: must not contain control characters/);
  }
});

t.test("an integer beyond 2^53 is told so, not called no integer", async (t) => {
  const r = await post(url(), sign(saleBody({ phone: 2 ** 65, amount: 2 ** 53 + 2 })));
  t.equal(r.http, 400);
  t.equal(r.body.status, 2);
  t.match(r.body.description, /amount: is an integer beyond 9007199254740991 \(2\^53 - 1\), which JSON readers cannot hold exactly/);
  t.match(
    r.body.description,
    /phone: is an integer beyond 9007199254740991 \(2\^53 - 1\), which JSON readers cannot hold exactly: send the phone as a string of digits/,
  );
});

t.test("a refusal's signed description cannot pose as other members", async (t) => {
  const forged = "Approved&payment_processor=sim-a&status=0&trace_id=424242&transaction_status=approved&version=1.0&zz";
  const r = await post(url(), { merchant_id: "m-test", signature: "0".repeat(96), timestamp: 1, [forged]: {} });
  t.equal(r.http, 400);
  t.notMatch(r.body.description, /[&=]/, "no & or = in a description");
  t.ok(r.body.description.length <= 256);
  for (const name of ["a&b", "a=b", "", "k\u0000"]) {
    const odd = await post(url(), sign(saleBody({ [name]: "x" })));
    t.equal(odd.http, 400, `a member named ${JSON.stringify(name)} is refused`);
    t.match(
      odd.body.description,
      /is no member name a signature can carry \(empty, __proto__, or holding an ampersand, an equals sign or a control character\)/,
      "said in words no rewriting of & and = garbles",
    );
  }
  t.equal((await post(url(), sign(saleBody({ "a=b": null })))).http, 200, "unless it is null: a null member is none");
  // JSON escapes can write what no UTF-8 byte can: half of a surrogate pair. It would sign and be stored as U+FFFD.
  const body = JSON.stringify(sign(saleBody()));
  const lone = await post(url(), null, { raw: body.replace('"first_name":"Jane"', '"first_name":"J\\ud800ne"') });
  t.equal(lone.http, 400, "a lone surrogate in a value is refused");
  t.match(lone.body.description, /first_name: must be Unicode text/);
  const proto = await post(url(), null, { raw: body.replace("{", '{"__proto__":"x",') });
  t.equal(proto.http, 400, "a member named __proto__ is refused");
  t.match(proto.body.description, /is no member name a signature can carry/);
  const many = await post(url(), sign(saleBody(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`extra_member_${i}`, [i]])))));
  t.equal(many.http, 400);
  t.ok(many.body.description.length <= 256, `description cut to 256 (${many.body.description.length})`);
  t.ok(replySigned(many.body), "and still signed as sent");
});

t.test("uncompressed JSON only", async (t) => {
  const r = await fetch(`${url()}/api/process`, { method: "POST", headers: { "content-type": "application/json", "content-encoding": "gzip" }, body: "{}" });
  t.equal(r.status, 415);
});

t.test("idempotency on (merchant_id, order_id)", async (t) => {
  const body = saleBody();
  const first = await post(url(), sign(body));
  const again = await post(url(), sign({ ...body, timestamp: (body.timestamp as number) + 1 }));
  t.equal(again.http, 200);
  t.equal(again.body.trace_id, first.body.trace_id, "a re-signed retry returns the same trace_id");
  t.equal(again.body.transaction_id, first.body.transaction_id);
  const conflict = await post(url(), sign({ ...body, amount: 2000 }));
  t.equal(conflict.http, 409);
  t.equal(conflict.body.status, 6);
  const rows = await service().sql("select count(*)::int as n from payment_order where order_id = $1", [body.order_id]);
  t.equal(rows[0].n, 1, "one order stored");
  const otherCvv = await post(url(), sign({ ...body, cvv: "999" }));
  t.equal(otherCvv.body.trace_id, first.body.trace_id, "the CVV is not part of the stored parameters (it never reaches the disk)");
  const otherMerchant = await post(url(), sign({ ...body, merchant_id: "m-other", frontend: "other-usd" }, OTHER_SECRET));
  t.equal(otherMerchant.http, 200, "order ids are per merchant");
  t.not(otherMerchant.body.trace_id, first.body.trace_id);

  // A member the interface does not define is signed and, like every member but timestamp and signature, one of the order's parameters.
  const extra = saleBody({ foo: "bar" });
  const withFoo = await post(url(), sign(extra));
  t.equal(withFoo.http, 200);
  const sameFoo = await post(url(), sign({ ...extra, timestamp: (extra.timestamp as number) + 1 }));
  t.equal(sameFoo.body.trace_id, withFoo.body.trace_id, "the same unknown member again: the same order");
  const otherFoo = await post(url(), sign({ ...extra, foo: "baz" }));
  t.equal(otherFoo.http, 409, "another value of it: other parameters");
  const noFoo = await post(url(), sign({ ...extra, foo: undefined }));
  t.equal(noFoo.http, 409, "without it: other parameters");
  const nullFoo = await post(url(), sign({ ...body, foo: null }));
  t.equal(nullFoo.body.trace_id, first.body.trace_id, "a null member is no member, as in the canonical string");
});

t.test("concurrent duplicates are processed once and share one trace_id", async (t) => {
  const body = sign(saleBody());
  const replies = await Promise.all(Array.from({ length: 12 }, () => post(url(), body)));
  const traces = new Set(replies.map((r) => r.body.trace_id));
  t.same(
    replies.map((r) => r.http),
    Array(12).fill(200),
  );
  t.equal(traces.size, 1, "one trace_id for all");
  const rows = await service().sql("select count(*)::int as n from transaction t join payment_order o on o.id = t.order_ref where o.order_id = $1", [
    body.order_id,
  ]);
  t.equal(rows[0].n, 1, "one attempt stored");
});

t.test("refunds", async (t) => {
  const sale = await process(url(), { amount: 1000 });
  const refund = (over: Record<string, unknown>) =>
    process(url(), { transaction_type: "refund", reference_id: String(sale.body.trace_id), amount: 300, cvv: "", ...over });

  const r1 = await refund({});
  t.equal(r1.http, 200);
  t.equal(r1.body.transaction_status, "approved");
  t.ok(replySigned(r1.body));

  const byOrderId = await process(url(), {
    transaction_type: "refund",
    reference_id: (
      await service().sql("select order_id from payment_order o join transaction t on t.order_ref=o.id where t.trace_id=$1", [sale.body.trace_id])
    )[0].order_id,
    amount: 300,
  });
  t.equal(byOrderId.body.transaction_status, "approved", "reference by order_id");

  // A zero-padded order_id is that order's, never the trace_id its digits spell (another sale's).
  const padded = await process(url(), { amount: 5000, order_id: `0${sale.body.trace_id}` });
  t.equal(padded.body.transaction_status, "approved");
  const byPadded = await process(url(), { transaction_type: "refund", reference_id: `0${sale.body.trace_id}`, amount: 4500 });
  t.equal(byPadded.body.transaction_status, "approved", "4500 of the padded order's 5000, more than the other sale holds");
  const [refunded] = await service().sql<{ reference_trace_id: number }>(
    "select o.reference_trace_id from payment_order o join transaction t on t.order_ref = o.id where t.trace_id = $1",
    [byPadded.body.trace_id],
  );
  t.equal(refunded.reference_trace_id, padded.body.trace_id, "booked against the padded order's sale");

  const tooMuch = await refund({ amount: 401 });
  t.equal(tooMuch.http, 400);
  t.equal(tooMuch.body.status, 11);
  t.equal(tooMuch.body.description, "amount: exceeds the sale's refundable remainder of 4.00 USD");

  const rest = await refund({ amount: 400 });
  t.equal(rest.body.transaction_status, "approved", "exactly the remainder");
  const none = await refund({ amount: 1 });
  t.equal(none.body.status, 11, "nothing remains");

  const missing = await refund({ reference_id: "999999999" });
  t.equal(missing.http, 400);
  t.equal(missing.body.status, 9);

  const declinedSale = await process(url(), { card_number: "4000000000000002" });
  const notApproved = await refund({ reference_id: String(declinedSale.body.trace_id) });
  t.equal(notApproved.body.status, 10);

  const otherCard = await refund({ card_number: "5555555555554444" });
  t.equal(otherCard.http, 400);
  t.equal(otherCard.body.status, 10);
  t.match(otherCard.body.description, /card_number/);

  const otherCurrency = await refund({ currency: "EUR" });
  t.equal(otherCurrency.body.status, 10);
  t.match(otherCurrency.body.description, /currency/);

  // BHD travels in whole dinars and is kept in fils: the remainder is told in dinars, as the platform may send it.
  const bhdSale = await process(url(), { currency: "BHD", amount: 7 });
  const bhdPart = await refund({ currency: "BHD", reference_id: String(bhdSale.body.trace_id), amount: 3 });
  t.equal(bhdPart.body.transaction_status, "approved");
  const bhdOver = await refund({ currency: "BHD", reference_id: String(bhdSale.body.trace_id), amount: 5 });
  t.same([bhdOver.http, bhdOver.body.status], [400, 11]);
  t.equal(bhdOver.body.description, "amount: exceeds the sale's refundable remainder of 4.000 BHD", "not 4000 (fils)");

  const foreign = await process(
    url(),
    { merchant_id: "m-other", frontend: "other-usd", transaction_type: "refund", reference_id: String(sale.body.trace_id), amount: 1 },
    OTHER_SECRET,
  );
  t.equal(foreign.body.status, 9, "another merchant's sale is not found");

  const payout = await process(url(), { transaction_type: "payout", cvv: "" });
  const refundPayout = await refund({ reference_id: String(payout.body.trace_id) });
  t.equal(refundPayout.body.status, 9, "a payout is not a sale");
});

t.test("simultaneous refunds never add up to more than the sale", async (t) => {
  const sale = await process(url(), { amount: 1000 });
  const replies = await Promise.all(
    Array.from({ length: 10 }, () => process(url(), { transaction_type: "refund", reference_id: String(sale.body.trace_id), amount: 300 })),
  );
  const approved = replies.filter((r) => r.body.transaction_status === "approved");
  const refused = replies.filter((r) => r.http === 400 && r.body.status === 11);
  t.equal(approved.length, 3, "three of 300 fit in 1000");
  t.equal(refused.length, 7);
  const [sum] = await service().sql<{ total: string }>(
    "select coalesce(sum(o.amount_minor),0) as total from payment_order o join transaction t on t.order_ref=o.id where o.reference_trace_id=$1 and t.status='approved'",
    [sale.body.trace_id],
  );
  t.equal(Number(sum.total), 900);
});

t.test("payouts: auto walks to approved, manual waits in requested", async (t) => {
  const auto = await process(url(), { transaction_type: "payout", cvv: "" });
  t.equal(auto.body.transaction_status, "approved");
  const letters = await service().sql<{ payout_letter: string }>("select payout_letter from transaction_event where trace_id=$1 order by id", [
    auto.body.trace_id,
  ]);
  t.same(
    letters.map((l) => l.payout_letter),
    [null, "A", "P", "Y"],
    "requested -> A -> P -> Y recorded",
  );

  const declined = await process(url(), { transaction_type: "payout", card_number: "4000000000000002" });
  t.equal(declined.body.transaction_status, "declined");

  const manual = await process(url(), { merchant_id: "m-manual", frontend: "manual-usd", transaction_type: "payout" });
  t.equal(manual.body.transaction_status, "requested");
  t.equal(manual.body.payment_processor, "sim-a");
});

t.test("amounts convert to minor units by currency", async (t) => {
  const jpy = await process(url(), { currency: "JPY", amount: 1000 });
  const bhd = await process(url(), { currency: "BHD", amount: 5 });
  const usd = await process(url(), { currency: "USD", amount: 1050 });
  const rows = await service().sql<{ currency: string; amount_minor: string }>(
    "select o.currency, o.amount_minor from payment_order o join transaction t on t.order_ref=o.id where t.trace_id = any($1) order by t.trace_id",
    [[jpy.body.trace_id, bhd.body.trace_id, usd.body.trace_id]],
  );
  t.same(
    rows.map((r) => `${r.amount_minor} ${r.currency}`),
    ["1000 JPY", "5000 BHD", "1050 USD"],
  );
  const huge = await process(url(), { currency: "BHD", amount: Number.MAX_SAFE_INTEGER });
  t.equal(huge.http, 400, "a wire amount that is beyond 2^53 - 1 once in minor units");
  t.match(huge.body.description, /amount: must be a positive integer of at most 9007199254740991 minor units/, "is named for what it is");
});

t.test("every status change is recorded with its cause", async (t) => {
  const r = await process(url(), { order_id: orderId("hist") });
  const events = await service().sql<{ from_status: string | null; to_status: string; cause: string }>(
    "select from_status, to_status, cause from transaction_event where trace_id=$1 order by id",
    [r.body.trace_id],
  );
  t.same(
    events.map((e) => [e.from_status, e.to_status, e.cause]),
    [
      [null, "pending", "created"],
      ["pending", "approved", "processor:approved"],
    ],
  );
});

t.test("unknown routes and methods answer JSON, not HTML", async (t) => {
  const r = await fetch(`${url()}/api/nothing`);
  t.equal(r.status, 404);
  t.equal(((await r.json()) as { status: number }).status, 13);
  const m = await fetch(`${url()}/api/process`);
  t.equal(m.status, 405);
});
