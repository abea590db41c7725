/**
 * Which callbacks a status change owes (README "Callbacks to the platform",
 * "Payouts"; CONTRACT section 6): a notification after the Process reply,
 * UpdatePayout for a payout letter the merchant asked for, RecordFailedDeposit
 * for a sale ending N or E, on attempts (test/support/builders.ts) and merchants
 * built in memory.
 */
import { DEFAULT_FRONTEND_SETTINGS } from "../../../../../engine/payments/domain/frontend-settings.ts";
import t from "tap";
import type { Attempt } from "../../../../../engine/shared/transaction.ts";
import type { Merchant } from "../../../../../engine/payments/ports/merchants.ts";
import type { OutboxEntry } from "../../../../../engine/payments/ports/orders.ts";
import { hmacKey } from "../../../../../engine/shared/hmac.ts";
import { anAttempt } from "../../../../support/builders.ts";
import { owedCallbacks, updatePayoutUrl, type ChangeContext } from "../../../../../engine/payments/app/owed-callbacks.ts";

const T0 = new Date("2026-11-18T10:00:00Z");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const NOTIFY = "https://platform.example/notify/ord-1001";

/** A pending sale of m-plat's, with a notification_url: the members the callbacks read are written out. */
function attempt(over: Partial<Attempt> = {}): Attempt {
  return anAttempt({
    traceId: 1044,
    orderId: "ord-1001",
    merchantId: "m-plat",
    type: "sale",
    status: "pending",
    payoutLetter: null,
    depositState: null,
    amountMinor: 1050,
    currency: "USD",
    processor: "sim-a",
    transactionId: null,
    cardMasked: "400000******0002",
    pin: "cust-42",
    frontend: "demo-usd",
    notificationUrl: NOTIFY,
    createdAt: T0,
    updatedAt: T0,
    ...over,
  });
}

function merchant(over: Partial<Merchant> = {}): Merchant {
  return {
    id: "m-plat",
    processorAccounts: [],
    signingKey: hmacKey("plat-secret"),
    previousKey: null,
    previousKeyExpiresAt: null,
    siteId: 7,
    platformUrl: "https://platform.example",
    validationUrl: null,
    updatePayoutUrl: null,
    updatePayoutStatuses: "CAPYJ",
    payoutApproval: "auto",
    processors: ["sim-a", "sim-b"],
    frontends: [{ name: "demo-usd", baseCurrency: "USD", currencies: ["USD"], settings: DEFAULT_FRONTEND_SETTINGS }],
    ...over,
  };
}

const SYSTEM: ChangeContext = { afterReply: false, updatedBy: "system" };
const LATER: ChangeContext = { afterReply: true, updatedBy: "system" };

// Changes as the state machine makes them.
const salePending = attempt();
const saleApproved = attempt({ status: "approved", transactionId: "sim-a-a1" });
const saleN = attempt({
  status: "declined",
  depositState: "N",
  transactionId: "sim-a-d1",
  errorCode: 5,
  errorDetails: "05 Do not honour",
  processorCode: "05",
});
const saleE = attempt({ status: "declined", depositState: "E", errorCode: 9001, errorDetails: "Processor unavailable" });
const saleValidationRejected = attempt({ status: "declined", depositState: null, errorCode: 9002, errorDetails: "deposit count exceeded" });
const saleUnvalidated = attempt({ status: "declined", depositState: null, errorCode: 9003, errorDetails: "Validation: no reply within 5000 ms" });
const saleRetry = attempt({
  status: "declined_retry",
  transactionId: "sim-a-r1",
  errorCode: 91,
  errorDetails: "91 Issuer unavailable, try another route",
  processorCode: "91",
});
const saleAsync = attempt({ status: "pending_async", transactionId: "sim-a-c1", redirectUrl: "https://cashier.example/3ds/1044/abc" });
const sale3dsFailed = attempt({
  status: "declined",
  depositState: "N",
  transactionId: "sim-a-c1",
  redirectUrl: "https://cashier.example/3ds/1044/abc",
  errorCode: 9004,
  errorDetails: "3-D Secure authentication failed",
});
const sale3dsExpired = attempt({
  status: "declined",
  depositState: "N",
  transactionId: "sim-a-c1",
  redirectUrl: "https://cashier.example/3ds/1044/abc",
  errorCode: 9005,
  errorDetails: "3-D Secure challenge expired",
});
const saleCancelled = attempt({ status: "cancelled" });

const po = (over: Partial<Attempt>) => attempt({ type: "payout", orderId: "po-77", traceId: 1050, amountMinor: 2500, cardMasked: "411111******1111", ...over });
const poRequested = po({ status: "requested" });
const poA = po({ status: "pending", payoutLetter: "A" });
const poP = po({ status: "pending", payoutLetter: "P" });
const poY = po({ status: "approved", payoutLetter: "Y", transactionId: "sim-a-a9" });
const poJ = po({ status: "declined", payoutLetter: "J", errorCode: 9007, errorDetails: "rejected by operator" });
const poJProcessor = po({
  status: "declined",
  payoutLetter: "J",
  transactionId: "sim-a-d9",
  errorCode: 5,
  errorDetails: "05 Do not honour",
  processorCode: "05",
});
const poC = po({ status: "cancelled", payoutLetter: "C" });

const refund = (over: Partial<Attempt>) => attempt({ type: "refund", orderId: "rf-1", referenceTraceId: 1001, ...over });
const rfPending = refund({ status: "pending" });
const rfDeclined = refund({ status: "declined", transactionId: "sim-a-d5", errorCode: 5, errorDetails: "05 Do not honour", processorCode: "05" });
const rfDeclinedWithState = refund({ status: "declined", depositState: "N", errorCode: 5, errorDetails: "05 Do not honour", processorCode: "05" });
const rfApproved = refund({ status: "approved", transactionId: "sim-a-a5" });

interface Row {
  name: string;
  before: Attempt;
  after: Attempt;
  merchant?: Merchant;
  ctx: ChangeContext;
  /** The owed callbacks as [kind, url], in any order. */
  want: [OutboxEntry["kind"], string][];
}

const RFD = "https://platform.example/RecordFailedDeposit";
const UP = "https://platform.example/UpdatePayout";

const ROWS: Row[] = [
  // Notifications: after the reply only, to the request's notification_url.
  { name: "sale pending -> approved after the reply", before: salePending, after: saleApproved, ctx: LATER, want: [["notification", NOTIFY]] },
  { name: "sale pending -> approved within the Process call", before: salePending, after: saleApproved, ctx: SYSTEM, want: [] },
  { name: "after the reply but no notification_url", before: salePending, after: { ...saleApproved, notificationUrl: null }, ctx: LATER, want: [] },
  { name: "3-D Secure challenge opened within the call", before: salePending, after: saleAsync, ctx: SYSTEM, want: [] },
  {
    name: "3-D Secure passed",
    before: saleAsync,
    after: { ...saleApproved, redirectUrl: saleAsync.redirectUrl },
    ctx: { afterReply: true, updatedBy: "customer" },
    want: [["notification", NOTIFY]],
  },
  { name: "cascade: declined_retry after the reply", before: salePending, after: saleRetry, ctx: LATER, want: [["notification", NOTIFY]] },
  { name: "cascade: declined_retry within the call", before: salePending, after: saleRetry, ctx: SYSTEM, want: [] },
  { name: "sale cancelled after the reply", before: salePending, after: saleCancelled, ctx: LATER, want: [["notification", NOTIFY]] },
  { name: "refund pending -> approved after the reply", before: rfPending, after: rfApproved, ctx: LATER, want: [["notification", NOTIFY]] },
  // RecordFailedDeposit: a sale ending N or E, whenever it happens.
  { name: "sale declined N within the call", before: salePending, after: saleN, ctx: SYSTEM, want: [["record_failed_deposit", RFD]] },
  { name: "sale declined E within the call", before: salePending, after: saleE, ctx: SYSTEM, want: [["record_failed_deposit", RFD]] },
  {
    name: "sale declined N after the reply",
    before: salePending,
    after: saleN,
    ctx: LATER,
    want: [
      ["notification", NOTIFY],
      ["record_failed_deposit", RFD],
    ],
  },
  {
    name: "3-D Secure failed (N, 9004)",
    before: saleAsync,
    after: sale3dsFailed,
    ctx: { afterReply: true, updatedBy: "customer" },
    want: [
      ["notification", NOTIFY],
      ["record_failed_deposit", RFD],
    ],
  },
  {
    name: "3-D Secure expired (N, 9005)",
    before: saleAsync,
    after: sale3dsExpired,
    ctx: LATER,
    want: [
      ["notification", NOTIFY],
      ["record_failed_deposit", RFD],
    ],
  },
  {
    name: "platform_url with a trailing slash",
    before: salePending,
    after: saleN,
    merchant: merchant({ platformUrl: "https://platform.example/" }),
    ctx: SYSTEM,
    want: [["record_failed_deposit", RFD]],
  },
  {
    name: "platform_url with a path and slashes",
    before: salePending,
    after: saleE,
    merchant: merchant({ platformUrl: "https://platform.example/cashier//" }),
    ctx: SYSTEM,
    want: [["record_failed_deposit", "https://platform.example/cashier/RecordFailedDeposit"]],
  },
  { name: "declined N without platform_url", before: salePending, after: saleN, merchant: merchant({ platformUrl: null }), ctx: SYSTEM, want: [] },
  {
    name: "declined N without platform_url, after the reply",
    before: salePending,
    after: saleN,
    merchant: merchant({ platformUrl: null }),
    ctx: LATER,
    want: [["notification", NOTIFY]],
  },
  {
    name: "declined N, update_payout_url is no RFD address",
    before: salePending,
    after: saleN,
    merchant: merchant({ platformUrl: null, updatePayoutUrl: "https://up.example/x" }),
    ctx: SYSTEM,
    want: [],
  },
  { name: "Validation rejection (9002): no deposit state, no RFD", before: salePending, after: saleValidationRejected, ctx: SYSTEM, want: [] },
  { name: "Validation unusable (9003): no deposit state, no RFD", before: salePending, after: saleUnvalidated, ctx: SYSTEM, want: [] },
  { name: "refund declined: no RFD", before: rfPending, after: rfDeclined, ctx: SYSTEM, want: [] },
  { name: "refund declined even with a deposit state: no RFD", before: rfPending, after: rfDeclinedWithState, ctx: SYSTEM, want: [] },
  { name: "payout declined by the processor (J): no RFD", before: poP, after: poJProcessor, ctx: SYSTEM, want: [["update_payout", UP]] },
  // UpdatePayout: a letter change in update_payout_statuses, with a URL.
  { name: "payout requested -> A (auto)", before: poRequested, after: poA, ctx: SYSTEM, want: [["update_payout", UP]] },
  { name: "payout A -> P", before: poA, after: poP, ctx: SYSTEM, want: [["update_payout", UP]] },
  { name: "payout P -> Y", before: poP, after: poY, ctx: SYSTEM, want: [["update_payout", UP]] },
  {
    name: "payout requested -> C by an operator",
    before: poRequested,
    after: poC,
    ctx: { afterReply: true, updatedBy: "operator:alice" },
    want: [
      ["notification", NOTIFY],
      ["update_payout", UP],
    ],
  },
  {
    name: "payout requested -> J by an operator",
    before: poRequested,
    after: poJ,
    ctx: { afterReply: true, updatedBy: "operator:alice" },
    want: [
      ["notification", NOTIFY],
      ["update_payout", UP],
    ],
  },
  { name: "payout A -> P not in statuses YJ", before: poA, after: poP, merchant: merchant({ updatePayoutStatuses: "YJ" }), ctx: SYSTEM, want: [] },
  {
    name: "payout P -> Y in statuses YJ",
    before: poP,
    after: poY,
    merchant: merchant({ updatePayoutStatuses: "YJ" }),
    ctx: SYSTEM,
    want: [["update_payout", UP]],
  },
  {
    name: "payout P -> J in statuses YJ",
    before: poP,
    after: poJProcessor,
    merchant: merchant({ updatePayoutStatuses: "YJ" }),
    ctx: SYSTEM,
    want: [["update_payout", UP]],
  },
  { name: "empty update_payout_statuses", before: poP, after: poY, merchant: merchant({ updatePayoutStatuses: "" }), ctx: SYSTEM, want: [] },
  {
    name: "update_payout_url wins over platform_url",
    before: poP,
    after: poY,
    merchant: merchant({ updatePayoutUrl: "https://up.example/api/UpdatePayout" }),
    ctx: SYSTEM,
    want: [["update_payout", "https://up.example/api/UpdatePayout"]],
  },
  {
    name: "update_payout_url without platform_url",
    before: poP,
    after: poY,
    merchant: merchant({ platformUrl: null, updatePayoutUrl: "https://up.example/api/UpdatePayout" }),
    ctx: SYSTEM,
    want: [["update_payout", "https://up.example/api/UpdatePayout"]],
  },
  {
    name: "{platform_url}/UpdatePayout, trailing slash handled",
    before: poP,
    after: poY,
    merchant: merchant({ platformUrl: "https://platform.example/" }),
    ctx: SYSTEM,
    want: [["update_payout", UP]],
  },
  { name: "no URL at all: no UpdatePayout", before: poP, after: poY, merchant: merchant({ platformUrl: null, updatePayoutUrl: null }), ctx: SYSTEM, want: [] },
  {
    name: "no URL at all, after the reply: the notification only",
    before: poP,
    after: poY,
    merchant: merchant({ platformUrl: null, updatePayoutUrl: null }),
    ctx: LATER,
    want: [["notification", NOTIFY]],
  },
  { name: "letter unchanged: no UpdatePayout", before: poA, after: { ...poA, updatedAt: new Date(T0.getTime() + 1000) }, ctx: SYSTEM, want: [] },
  {
    name: "letter unchanged after the reply: the notification only",
    before: poP,
    after: { ...poP, transactionId: "sim-a-p9" },
    ctx: LATER,
    want: [["notification", NOTIFY]],
  },
  {
    name: "a payout never owes RecordFailedDeposit, even with a deposit state",
    before: poP,
    after: { ...poJProcessor, depositState: "N" },
    merchant: merchant({ updatePayoutStatuses: "" }),
    ctx: SYSTEM,
    want: [],
  },
  { name: "a sale with a payout letter owes no UpdatePayout", before: salePending, after: { ...saleApproved, payoutLetter: "Y" }, ctx: SYSTEM, want: [] },
];

const sortPairs = (p: [string, string][]) => [...p].sort((a, b) => (a[0] + a[1] < b[0] + b[1] ? -1 : 1));

t.test("owedCallbacks: what each change owes", async (t) => {
  for (const row of ROWS) {
    const m = row.merchant ?? merchant();
    // Within the call a notification is written only if a repeat already answered (ifReplied): not owed outright.
    const all = owedCallbacks(row.before, row.after, m, row.ctx);
    const out = all.filter((e) => !e.ifReplied);
    t.same(sortPairs(out.map((e) => [e.kind, e.url])), sortPairs(row.want), row.name);
    const conditional = all.filter((e) => e.ifReplied);
    t.ok(
      conditional.every((e) => e.kind === "notification" && !row.ctx.afterReply),
      `${row.name}: only a notification within the call is conditional`,
    );
    for (const e of out) {
      t.equal(e.merchantId, "m-plat", `${row.name}: ${e.kind} names the merchant`);
      t.match(e.eventId, UUID, `${row.name}: ${e.kind} event id is a UUID`);
      t.doesNotThrow(() => JSON.parse(e.body), `${row.name}: ${e.kind} body is JSON`);
    }
    t.equal(new Set(out.map((e) => e.eventId)).size, out.length, `${row.name}: event ids distinct`);
  }
});

t.test("owedCallbacks: the bodies belong to the change", async (t) => {
  const [n] = owedCallbacks(salePending, saleApproved, merchant(), LATER);
  const nb = JSON.parse(n.body) as Record<string, unknown>;
  t.match(
    nb,
    { status: 0, trace_id: 1044, transaction_status: "approved", order_id: "ord-1001", transaction_type: "sale", amount: 1050, currency: "USD" },
    "notification says the new status",
  );
  t.notOk("signature" in nb, "kept unsigned: the delivery signs it with the secret current then");
  t.equal(n.ifReplied, false, "after the reply: owed outright");
  const within = owedCallbacks(salePending, saleApproved, merchant(), SYSTEM).find((e) => e.kind === "notification");
  t.equal(within?.ifReplied, true, "within the call: owed only if a repeat already answered pending");

  const u = owedCallbacks(poRequested, poC, merchant(), { afterReply: false, updatedBy: "operator:alice" }).find((e) => e.kind === "update_payout")!;
  t.same(
    JSON.parse(u.body),
    {
      PIN: "cust-42",
      SiteID: 7,
      FrontEndName: "demo-usd",
      TraceID: 1050,
      ExtPayoutID: "po-77",
      Status: "C",
      PP: "sim-a",
      TransactionID: "",
      UpdatedBy: "operator:alice",
      Amount: 25,
      Currency: "USD",
      Fee: 0,
    },
    "UpdatePayout carries the new letter and who made it",
  );
  t.match(u.body, /"Amount":25\.00,/, "Amount in major units with the currency's decimals");

  const u2 = owedCallbacks(poP, poY, merchant({ siteId: null }), SYSTEM).find((e) => e.kind === "update_payout")!;
  t.notOk("SiteID" in JSON.parse(u2.body), "SiteID omitted without a site id");

  const r = owedCallbacks(salePending, saleN, merchant(), SYSTEM).find((e) => e.kind === "record_failed_deposit")!;
  t.match(
    JSON.parse(r.body),
    { PIN: "cust-42", SiteID: 7, TraceID: 1044, errorCode: "05", errorDesc: "Do not honour", CardNumber: "400000******0002" },
    "RecordFailedDeposit names the failed attempt",
  );
  const e = owedCallbacks(salePending, saleE, merchant(), SYSTEM).find((x) => x.kind === "record_failed_deposit")!;
  t.match(JSON.parse(e.body), { errorCode: "9001", TransactionID: "" }, "E: 9001");
});

t.test("owedCallbacks: event ids are fresh on every call", async (t) => {
  const ids = new Set<string>();
  for (let i = 0; i < 50; i++) {
    for (const e of owedCallbacks(salePending, saleN, merchant(), LATER)) ids.add(e.eventId);
  }
  t.equal(ids.size, 100, "100 callbacks, 100 ids");
  for (const id of ids) t.match(id, UUID);
});

t.test("updatePayoutUrl", async (t) => {
  const rows: [name: string, m: Partial<Merchant>, want: string | null][] = [
    [
      "update_payout_url",
      { updatePayoutUrl: "https://up.example/api/UpdatePayout", platformUrl: "https://platform.example" },
      "https://up.example/api/UpdatePayout",
    ],
    ["update_payout_url alone", { updatePayoutUrl: "https://up.example/api/UpdatePayout", platformUrl: null }, "https://up.example/api/UpdatePayout"],
    ["update_payout_url as given (no slash handling)", { updatePayoutUrl: "https://up.example/hook/", platformUrl: null }, "https://up.example/hook/"],
    ["platform_url", { updatePayoutUrl: null, platformUrl: "https://platform.example" }, "https://platform.example/UpdatePayout"],
    ["platform_url/", { updatePayoutUrl: null, platformUrl: "https://platform.example/" }, "https://platform.example/UpdatePayout"],
    ["platform_url with a path/", { updatePayoutUrl: null, platformUrl: "https://platform.example/api/" }, "https://platform.example/api/UpdatePayout"],
    ["platform_url with a path///", { updatePayoutUrl: null, platformUrl: "https://platform.example/api///" }, "https://platform.example/api/UpdatePayout"],
    ["empty update_payout_url falls back", { updatePayoutUrl: "", platformUrl: "https://platform.example" }, "https://platform.example/UpdatePayout"],
    ["neither", { updatePayoutUrl: null, platformUrl: null }, null],
    ["both empty", { updatePayoutUrl: "", platformUrl: "" }, null],
  ];
  for (const [name, m, want] of rows) t.equal(updatePayoutUrl(merchant(m)), want, name);
});
