/**
 * Operators manage merchants and frontends through cashier.admin.v1 over real
 * gRPC, and what they set is what the Process API then does: a created
 * merchant signs its first request, an update switches payouts to manual, a
 * new frontend accepts its currency, a rotated secret works at once while the
 * old one keeps working for the overlap only. Secrets never come back.
 */
import t from "tap";
import { Code } from "@connectrpc/connect";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { toJsonString } from "@bufbuild/protobuf";
import { AdminService } from "../../gen/cashier/admin/v1/admin_service_pb.js";
import { MerchantSchema, PayoutApproval } from "../../gen/cashier/admin/v1/merchant_pb.js";
import { adminClient, useService } from "../support/service.ts";
import { processSale, replySigned } from "../support/wire.ts";
import { movableClock } from "../support/clock.ts";
import { refusal } from "../support/refusal.ts";

// The service's clock moves: a secret's overlap runs out without the test sleeping through it.
const clock = movableClock();
const svc = useService(t, {}, { now: clock.now });
const SECRET_A = "first-secret-0123456789";
const SECRET_B = "second-secret-9876543210";
const seen: string[] = [];

/** The shared refusal of a call; what a taken call answered is kept in `seen`, which the last test reads for secrets. */
const refused = (p: Promise<unknown>) => refusal(p.then((answer) => seen.push(JSON.stringify(answer, (_k, v) => (typeof v === "bigint" ? String(v) : v)))));

const newMerchant = (over: Record<string, unknown> = {}) => ({
  merchantId: "m-ops",
  siteId: 12,
  processors: ["sim-b"],
  frontends: [{ name: "ops-usd", baseCurrency: "USD", currencies: [] }],
  ...over,
});

t.test("create a merchant; it can sign its first request at once; its secret never comes back", async (t) => {
  const created = await svc().admin.createMerchant({ merchant: newMerchant(), secret: SECRET_A });
  seen.push(toJsonString(MerchantSchema, created.merchant!));
  t.match(created.merchant, { merchantId: "m-ops", siteId: 12, processors: ["sim-b"], payoutApproval: PayoutApproval.AUTO, updatePayoutStatuses: "CAPYJ" });
  t.same(
    created.merchant?.frontends.map((f) => [f.name, f.baseCurrency, f.currencies]),
    [["ops-usd", "USD", ["USD"]]],
  );
  const sale = await processSale(svc().edgeUrl, { merchant_id: "m-ops", frontend: "ops-usd" }, SECRET_A);
  t.equal(sale.body.transaction_status, "approved");
  t.equal(sale.body.payment_processor, "sim-b", "the merchant's cascade order is used");
  t.ok(replySigned(sale.body, SECRET_A));
  const again = await refused(svc().admin.createMerchant({ merchant: newMerchant(), secret: SECRET_A }));
  t.equal(again.code, Code.AlreadyExists);
  const got = await svc().admin.getMerchant({ merchantId: "m-ops" });
  seen.push(toJsonString(MerchantSchema, got.merchant!));
});

t.test("a merchant stored with a processor listed twice (before that was taken once) is read once each, and updates", async (t) => {
  await svc().admin.createMerchant({ merchant: newMerchant({ merchantId: "m-ops-twice" }), secret: SECRET_A });
  await svc().sql(`update merchant set processors = '["sim-b", "sim-b", "sim-a"]', update_payout_statuses = 'YYJ' where id = 'm-ops-twice'`);
  const got = await svc().admin.getMerchant({ merchantId: "m-ops-twice" });
  t.same([got.merchant?.processors, got.merchant?.updatePayoutStatuses], [["sim-b", "sim-a"], "YJ"]);
  const other = await svc().admin.updateMerchant({ merchant: { merchantId: "m-ops-twice", siteId: 14 }, updateMask: { paths: ["site_id"] } });
  t.equal(other.merchant?.siteId, 14, "another field's update goes through");
});

t.test("update_payout_statuses none: no UpdatePayout at all, told back as none; letters again restore it", async (t) => {
  await svc().admin.createMerchant({ merchant: newMerchant({ merchantId: "m-ops-up" }), secret: SECRET_A });
  const off = await svc().admin.updateMerchant({
    merchant: { merchantId: "m-ops-up", updatePayoutStatuses: "none" },
    updateMask: { paths: ["update_payout_statuses"] },
  });
  t.equal(off.merchant?.updatePayoutStatuses, "none");
  const [{ update_payout_statuses }] = await svc().sql<{ update_payout_statuses: string }>("select update_payout_statuses from merchant where id = 'm-ops-up'");
  t.equal(update_payout_statuses, "", "kept as no letter");
  t.equal((await svc().admin.getMerchant({ merchantId: "m-ops-up" })).merchant?.updatePayoutStatuses, "none");
  const other = await svc().admin.updateMerchant({ merchant: { merchantId: "m-ops-up", siteId: 13 }, updateMask: { paths: ["site_id"] } });
  t.equal(other.merchant?.updatePayoutStatuses, "none", "another field's update keeps it");
  const on = await svc().admin.updateMerchant({
    merchant: { merchantId: "m-ops-up", updatePayoutStatuses: "YJ" },
    updateMask: { paths: ["update_payout_statuses"] },
  });
  t.equal(on.merchant?.updatePayoutStatuses, "YJ");
});

t.test("bad merchant input is INVALID_ARGUMENT naming the field", async (t) => {
  const cases: [() => Promise<unknown>, string][] = [
    [() => svc().admin.createMerchant({ merchant: newMerchant({ merchantId: "m-x1" }), secret: "short" }), "secret"],
    [() => svc().admin.createMerchant({ merchant: newMerchant({ merchantId: "m-x2", platformUrl: "ftp://x" }), secret: SECRET_A }), "merchant.platform_url"],
    [
      () => svc().admin.createMerchant({ merchant: newMerchant({ merchantId: "m-x3", frontends: [{ name: "f", baseCurrency: "XYZ" }] }), secret: SECRET_A }),
      "merchant.frontends[0].base_currency",
    ],
    [() => svc().admin.createMerchant({ merchant: newMerchant({ merchantId: "m-x4", processors: ["acme"] }), secret: SECRET_A }), "merchant.processors"],
    [
      () => svc().admin.createMerchant({ merchant: newMerchant({ merchantId: "m-x5", updatePayoutStatuses: "XY" }), secret: SECRET_A }),
      "merchant.update_payout_statuses",
    ],
    [() => svc().admin.createMerchant({ merchant: newMerchant({ merchantId: "" }), secret: SECRET_A }), "merchant.merchant_id"],
    [() => svc().admin.createMerchant({ secret: SECRET_A }), "merchant"],
    [() => svc().admin.updateMerchant({ merchant: { merchantId: "m-ops" }, updateMask: { paths: ["secret"] } }), "update_mask"],
    // Frontends set with no mask (or "*"): not silently dropped.
    [() => svc().admin.updateMerchant({ merchant: { merchantId: "m-ops", frontends: [{ name: "g", baseCurrency: "EUR" }] } }), "merchant.frontends"],
    [
      () => svc().admin.updateMerchant({ merchant: { merchantId: "m-ops", frontends: [{ name: "g", baseCurrency: "EUR" }] }, updateMask: { paths: ["*"] } }),
      "merchant.frontends",
    ],
    [() => svc().admin.rotateMerchantSecret({ merchantId: "m-ops", newSecret: "short" }), "new_secret"],
    [() => svc().admin.rotateMerchantSecret({ merchantId: "m-ops", newSecret: SECRET_B, overlapSeconds: 10_000_000 }), "overlap_seconds"],
    [() => svc().admin.createFrontend({ merchantId: "m-ops", frontend: { name: "", baseCurrency: "USD" } }), "frontend.name"],
    [() => svc().admin.listMerchants({ pageToken: "garbage" }), "page_token"],
    [() => svc().admin.listMerchants({ pageToken: Buffer.from(JSON.stringify({ v: 1, m: "\u0000" })).toString("base64url") }), "page_token"],
    [
      () => svc().admin.updateMerchant({ merchant: { merchantId: "m-ops", payoutApproval: 99 as PayoutApproval }, updateMask: { paths: ["payout_approval"] } }),
      "merchant.payout_approval",
    ],
    [() => svc().admin.updateMerchant({ merchant: { merchantId: "m-ops", payoutApproval: 99 as PayoutApproval } }), "merchant.payout_approval"],
    [
      () => svc().admin.createMerchant({ merchant: newMerchant({ merchantId: "m-x6", payoutApproval: 7 as PayoutApproval }), secret: SECRET_A }),
      "merchant.payout_approval",
    ],
    [() => svc().admin.createMerchant({ merchant: newMerchant({ merchantId: "m&x=1" }), secret: SECRET_A }), "merchant.merchant_id"],
    [() => svc().admin.createMerchant({ merchant: newMerchant({ merchantId: "m-x7", siteId: -3 }), secret: SECRET_A }), "merchant.site_id"],
    [
      () =>
        svc().admin.createMerchant({
          merchant: newMerchant({
            merchantId: "m-x8",
            frontends: [
              { name: "a", baseCurrency: "USD" },
              { name: "a", baseCurrency: "EUR" },
            ],
          }),
          secret: SECRET_A,
        }),
      "merchant.frontends[1].name",
    ],
    [() => svc().admin.createFrontend({ merchantId: "m-ops", frontend: { name: "z\u0000", baseCurrency: "USD" } }), "frontend.name"],
    [() => svc().admin.updateMerchant({ merchant: { merchantId: "m-ops", platformUrl: "http://a.example/\u0000" } }), "merchant.platform_url"],
    [
      () => svc().admin.updateFrontend({ merchantId: "m-ops", frontend: { name: "ops-usd", currencies: ["EUR"] }, updateMask: { paths: ["currencies"] } }),
      "frontend.currencies",
    ],
    [() => svc().admin.createFrontend({ merchantId: "m-ops", frontend: { name: "ops-gbp", baseCurrency: "GBP", currencies: ["EUR"] } }), "frontend.currencies"],
    [() => svc().admin.approvePayout({ traceId: 1, operator: "" }), "operator"],
  ];
  // Each call is made only when its turn comes: a refusal is never left unobserved.
  for (const [call, field] of cases) {
    const r = await refused(call());
    t.equal(r.code, Code.InvalidArgument, `${field}: INVALID_ARGUMENT (${r.message})`);
    t.ok(r.fields.includes(field), `names ${field} (got ${r.fields.join(", ")})`);
  }
  t.equal((await refused(svc().admin.getMerchant({ merchantId: "m-none" }))).code, Code.NotFound);
  t.equal((await refused(svc().admin.rotateMerchantSecret({ merchantId: "m-none", newSecret: SECRET_B }))).code, Code.NotFound);
});

t.test("update: the fields in update_mask change, the others stay; payouts turn manual", async (t) => {
  const updated = await svc().admin.updateMerchant({
    merchant: { merchantId: "m-ops", payoutApproval: PayoutApproval.MANUAL, siteId: 99 },
    updateMask: { paths: ["payout_approval"] },
  });
  t.equal(updated.merchant?.payoutApproval, PayoutApproval.MANUAL);
  t.equal(updated.merchant?.siteId, 12, "site_id was not in the mask");
  t.same(updated.merchant?.processors, ["sim-b"]);
  const payout = await processSale(svc().edgeUrl, { merchant_id: "m-ops", frontend: "ops-usd", transaction_type: "payout", cvv: undefined }, SECRET_A);
  t.equal(payout.body.transaction_status, "requested", "payouts now wait for an operator");
  const noMask = await svc().admin.updateMerchant({ merchant: { merchantId: "m-ops", platformUrl: "https://ops.example" } });
  t.equal(noMask.merchant?.platformUrl, "https://ops.example", "without a mask, the fields that are set change");
  t.equal(noMask.merchant?.payoutApproval, PayoutApproval.MANUAL, "and the others stay");
  t.equal(noMask.merchant?.siteId, 12);
  // Two operators at the same moment, each on a field of their own: neither undoes the other.
  await Promise.all([
    svc().admin.updateMerchant({ merchant: { merchantId: "m-ops", siteId: 31 }, updateMask: { paths: ["site_id"] } }),
    svc().admin.updateMerchant({ merchant: { merchantId: "m-ops", validationUrl: "https://ops.example/validate" }, updateMask: { paths: ["validation_url"] } }),
  ]);
  const both = await svc().admin.getMerchant({ merchantId: "m-ops" });
  t.equal(both.merchant?.siteId, 31);
  t.equal(both.merchant?.validationUrl, "https://ops.example/validate");
  t.same(both.merchant?.processors, ["sim-b"], "processors, written as JSON, untouched");
  await svc().admin.updateMerchant({
    merchant: { merchantId: "m-ops", processors: ["sim-a", "sim-b"] },
    updateMask: { paths: ["processors", "validation_url"] },
  });
  const cleared = await svc().admin.getMerchant({ merchantId: "m-ops" });
  t.same(cleared.merchant?.processors, ["sim-a", "sim-b"], "a list setting is written");
  t.equal(cleared.merchant?.validationUrl, "", "a masked field sent empty is cleared");
  await svc().admin.updateMerchant({ merchant: { merchantId: "m-ops", processors: ["sim-b"] }, updateMask: { paths: ["processors"] } });
});

t.test("frontends: a new one accepts its currencies; an update changes them", async (t) => {
  const eurBefore = await processSale(svc().edgeUrl, { merchant_id: "m-ops", frontend: "ops-eur", currency: "EUR" }, SECRET_A);
  t.equal(eurBefore.http, 400);
  await svc().admin.createFrontend({ merchantId: "m-ops", frontend: { name: "ops-eur", baseCurrency: "EUR" } });
  const eur = await processSale(svc().edgeUrl, { merchant_id: "m-ops", frontend: "ops-eur", currency: "EUR" }, SECRET_A);
  t.equal(eur.body.transaction_status, "approved");
  t.equal((await refused(svc().admin.createFrontend({ merchantId: "m-ops", frontend: { name: "ops-eur", baseCurrency: "EUR" } }))).code, Code.AlreadyExists);
  const jpyBefore = await processSale(svc().edgeUrl, { merchant_id: "m-ops", frontend: "ops-usd", currency: "JPY", amount: 1000 }, SECRET_A);
  t.equal(jpyBefore.http, 400, "JPY is not accepted by ops-usd yet");
  const up = await svc().admin.updateFrontend({
    merchantId: "m-ops",
    frontend: { name: "ops-usd", currencies: ["USD", "JPY"] },
    updateMask: { paths: ["currencies"] },
  });
  t.same(up.merchant?.frontends.find((f) => f.name === "ops-usd")?.currencies, ["USD", "JPY"]);
  t.equal(up.merchant?.frontends.find((f) => f.name === "ops-usd")?.baseCurrency, "USD", "base currency unchanged");
  const jpy = await processSale(svc().edgeUrl, { merchant_id: "m-ops", frontend: "ops-usd", currency: "JPY", amount: 1000 }, SECRET_A);
  t.equal(jpy.body.transaction_status, "approved");
  t.equal((await refused(svc().admin.updateFrontend({ merchantId: "m-ops", frontend: { name: "nope", currencies: ["USD"] } }))).code, Code.NotFound);
});

t.test("rotation: the new secret works at once, the old one only for the overlap", async (t) => {
  const rotated = await svc().admin.rotateMerchantSecret({ merchantId: "m-ops", newSecret: SECRET_B, overlapSeconds: 60 });
  const retried = await svc().admin.rotateMerchantSecret({ merchantId: "m-ops", newSecret: SECRET_B, overlapSeconds: 60 });
  t.same(retried.merchant?.previousSecretExpireTime, rotated.merchant?.previousSecretExpireTime, "sending the same rotation again changes nothing");
  seen.push(toJsonString(MerchantSchema, rotated.merchant!));
  t.ok(rotated.merchant?.previousSecretExpireTime, "tells when the old secret stops working");
  const withNew = await processSale(svc().edgeUrl, { merchant_id: "m-ops", frontend: "ops-usd" }, SECRET_B);
  t.equal(withNew.body.transaction_status, "approved");
  t.ok(replySigned(withNew.body, SECRET_B), "replies are signed with the new secret");
  const withOld = await processSale(svc().edgeUrl, { merchant_id: "m-ops", frontend: "ops-usd" }, SECRET_A);
  t.equal(withOld.body.transaction_status, "approved", "the old secret still works during the overlap");
  t.ok(replySigned(withOld.body, SECRET_B), "even then the reply is signed with the new secret");
  // A minute of overlap, however slow the machine; then the service's clock moves past it,
  // and the request is stamped on that clock so that only the secret can be what is refused.
  clock.advance(61_000);
  const lateStamp = Math.floor(clock.now().getTime() / 1000);
  const late = await processSale(svc().edgeUrl, { merchant_id: "m-ops", frontend: "ops-usd", timestamp: lateStamp }, SECRET_A);
  t.equal(late.http, 401, "after the overlap the old secret is refused");
  t.notMatch(late.text, /timestamp/, `refused for its signature, not its time (${late.text})`);
  const after = await svc().admin.getMerchant({ merchantId: "m-ops" });
  t.equal(after.merchant?.previousSecretExpireTime, undefined, "no previous secret any more");
});

t.test("list merchants in pages; admin calls need a token", async (t) => {
  const first = await svc().admin.listMerchants({ pageSize: 2 });
  t.equal(first.merchants.length, 2);
  t.not(first.nextPageToken, "");
  const rest = await svc().admin.listMerchants({ pageSize: 500, pageToken: first.nextPageToken });
  const ids = [...first.merchants, ...rest.merchants].map((m) => m.merchantId);
  t.same(ids, [...ids].sort(), "by merchant_id");
  t.equal(new Set(ids).size, ids.length, "no merchant twice");
  t.ok(ids.includes("m-ops") && ids.includes("m-test"));
  for (const m of [...first.merchants, ...rest.merchants]) seen.push(toJsonString(MerchantSchema, m));
  const anonymous = createClient(AdminService, createGrpcTransport({ baseUrl: svc().engineUrl }));
  t.equal(
    (await refused(adminClient(svc().engineUrl, svc().engine.edgeToken).listMerchants({}))).code,
    Code.Unauthenticated,
    "the edge's token opens no admin call",
  );
  t.equal((await refused(anonymous.listMerchants({}))).code, Code.Unauthenticated);
  t.equal((await refused(anonymous.approvePayout({ traceId: 1 }))).code, Code.Unauthenticated);
});

t.test("no admin answer, log line or table holds a secret in the clear", async (t) => {
  t.ok(seen.length > 5);
  for (const text of seen) {
    t.notMatch(text, SECRET_A);
    t.notMatch(text, SECRET_B);
  }
  t.notMatch(svc().logs(), SECRET_A);
  t.notMatch(svc().logs(), SECRET_B);
  const [row] = await svc().sql<{ all: string }>(`select row_to_json(m)::text as all from merchant m where id = 'm-ops'`);
  t.notMatch(row.all, SECRET_A);
  t.notMatch(row.all, SECRET_B);
});
