/**
 * The checkout connector's status tables and answers: every (flow, status)
 * pair enumerated here as the table must read, every recorded Checkout.com
 * answer (test/fixtures/checkout/, each with its source) classified, and the
 * HTTP statuses of writes and lookups.
 */
import t from "tap";
import { decide, type ProcessorOutcome } from "../../../../../../engine/payments/domain/outcome.ts";
import { PAYMENT_STATUSES, REFUND_STATUSES, STATUS_TABLE, type Verdict } from "../../../../../../engine/payments/processors/checkout/status-table.ts";
import {
  findOutcome,
  lookupOutcome,
  paymentOutcome,
  refundActionOutcome,
  refundActionsOutcome,
  writeOutcome,
} from "../../../../../../engine/payments/processors/checkout/transformers.ts";
import { answer } from "../../../../../fixtures/checkout/load.ts";

/** The tables as they must read: sale, payout and lookup by payment status; refund by the refund's state. */
const EXPECTED: Record<"sale" | "payout" | "lookup", Record<string, Verdict>> & { refund: Record<string, Verdict> } = {
  // biome-ignore format: one row per status
  sale: {
    Active: "pending", Pending: "challenge", Authorized: "approved", "Card Verified": "unknown", Voided: "declined",
    "Partially Captured": "unknown", Captured: "approved", "Partially Refunded": "unknown", Refunded: "unknown", Declined: "by-code",
    Canceled: "declined", Expired: "declined", Requested: "pending", Paid: "unknown", Returned: "unknown", "Retry Scheduled": "pending",
  },
  // biome-ignore format: one row per status
  payout: {
    Active: "pending", Pending: "pending", Authorized: "unknown", "Card Verified": "unknown", Voided: "declined",
    "Partially Captured": "unknown", Captured: "unknown", "Partially Refunded": "unknown", Refunded: "unknown", Declined: "by-code",
    Canceled: "declined", Expired: "declined", Requested: "pending", Paid: "approved", Returned: "declined", "Retry Scheduled": "pending",
  },
  // biome-ignore format: one row per status
  lookup: {
    Active: "pending", Pending: "pending", Authorized: "approved", "Card Verified": "unknown", Voided: "declined",
    "Partially Captured": "approved", Captured: "approved", "Partially Refunded": "approved", Refunded: "approved", Declined: "by-code",
    Canceled: "declined", Expired: "declined", Requested: "pending", Paid: "approved", Returned: "declined", "Retry Scheduled": "pending",
  },
  refund: { Accepted: "pending", Pending: "pending", Approved: "approved", Declined: "by-code" },
};

/** The outcome kind each verdict gives on a body with an id, a redirect link and a soft decline code. */
const KIND: Record<Verdict, ProcessorOutcome["kind"]> = {
  approved: "approved",
  pending: "pending",
  challenge: "challenge",
  declined: "declined",
  "by-code": "retryable",
  unknown: "unknown",
};

t.test("every (flow, status) pair is in the table, as it must read", async (t) => {
  for (const flow of ["sale", "payout", "lookup"] as const) {
    t.same(Object.keys(STATUS_TABLE[flow]), [...PAYMENT_STATUSES], `${flow}: every payment status has a row`);
    for (const status of PAYMENT_STATUSES) {
      t.equal(STATUS_TABLE[flow][status], EXPECTED[flow][status], `${flow} / ${status}: ${EXPECTED[flow][status]}`);
      const body = { id: "pay_mbabizu24mvu3mela5njyhpit4", status, response_code: "20005", _links: { redirect: { href: "https://3ds.example/x" } } };
      t.equal(paymentOutcome(flow, body).kind, KIND[EXPECTED[flow][status]], `${flow} / ${status} -> ${KIND[EXPECTED[flow][status]]}`);
    }
  }
  t.same(Object.keys(STATUS_TABLE.refund), [...REFUND_STATUSES]);
  for (const status of REFUND_STATUSES) t.equal(STATUS_TABLE.refund[status], EXPECTED.refund[status], `refund / ${status}`);
});

/** Recorded answer -> the outcome it must give (the id, when it has one, is the recorded one). */
const RECORDED: [name: string, flow: "sale" | "payout" | "refund" | "lookup", outcome: Partial<ProcessorOutcome>][] = [
  ["sale-authorized", "sale", { kind: "approved", transactionId: "pay_6ndp5facelxurne7gloxkxm57u" }],
  ["sale-authorized-nas", "sale", { kind: "approved", transactionId: "pay_gjulv7byhhwerb3jyx2547xlme" }],
  ["sale-authorized-spec-example", "sale", { kind: "approved", transactionId: "pay_mbabizu24mvu3mela5njyhpit4" }],
  [
    "sale-3ds-pending",
    "sale",
    {
      kind: "challenge",
      transactionId: "pay_k72n4u433mierlthuim5oc5syu",
      redirectUrl: "https://3ds2-sandbox.ckotech.co/interceptor/3ds_a25l6ocl6luebnvyed4s3xvxcu",
    },
  ],
  ["sale-declined-20005", "sale", { kind: "retryable", transactionId: "pay_idt2rgacxglehoyhiu7fu3e4we", code: "20005", message: "Declined - Do Not Honour" }],
  ["payout-paid", "payout", { kind: "approved", transactionId: "pay_3a3adlwxdlc43jdhetv3muzf7e" }],
  ["refund-accepted", "refund", { kind: "pending", transactionId: "act_3cxabwfq4ieu3mn3cuzv7ct6dy" }],
  ["refund-not-allowed", "refund", { kind: "declined", code: "403" }],
  ["invalid-request", "sale", { kind: "unavailable", message: "Checkout.com refused the request (HTTP 422: payment_source_required)" }],
  ["payout-token-expired", "payout", { kind: "unavailable", message: "Checkout.com refused the request (HTTP 422: token_expired)" }],
  ["unauthorized", "sale", { kind: "unavailable", message: "Checkout.com refused the request (HTTP 401)" }],
  ["too-many-requests", "sale", { kind: "unknown" }],
  ["server-error", "sale", { kind: "unknown" }],
  ["bad-gateway", "sale", { kind: "unknown" }],
  ["lookup-card-verified", "lookup", { kind: "unknown", transactionId: "pay_je5hbbb4u3oe7k4u3lbwlu3zkq" }],
  ["lookup-not-found", "lookup", { kind: "unknown" }],
  ["lookup-unauthorized", "lookup", { kind: "unknown" }],
];

t.test("every recorded answer classifies as the tables say", async (t) => {
  for (const [name, flow, expected] of RECORDED) {
    const a = answer(name);
    const out = flow === "lookup" ? lookupOutcome(a.http, a.body) : writeOutcome(flow, a.http, a.body);
    t.match(out, expected, `${name} (HTTP ${a.http}): ${expected.kind}`);
  }
});

t.test("the search by reference", async (t) => {
  const list = answer("find-by-reference");
  t.match(findOutcome(1234, list.http, list.body), { kind: "approved", transactionId: "pay_3lird6z63jpujguvaxnjyqsu4e" }, "the one payment with our reference");
  t.same(
    findOutcome(99, 200, { total_count: 0, data: [] }),
    { kind: "unavailable", message: "Checkout.com has no payment with this reference", mayArriveLate: true },
    "none: not taken, but Checkout cannot fence a reference, so it may yet arrive",
  );
  t.match(findOutcome(1234, 200, { data: [list.body.data[0], list.body.data[0]] }), { kind: "unknown" }, "two: an operator's question, never a guess");
  t.match(findOutcome(77, list.http, list.body), { kind: "unavailable", mayArriveLate: true }, "a payment of another reference is not ours");
  for (const http of [401, 404, 422, 429, 500]) t.match(findOutcome(1234, http, {}), { kind: "unknown" }, `HTTP ${http} says nothing of the payment`);
  t.match(findOutcome(1234, 200, {}), { kind: "unknown" }, "an answer without data");
});

t.test("HTTP statuses: a refused write took nothing, a failed lookup says nothing", async (t) => {
  const unavailable = [400, 401, 403, 404, 415, 422];
  const unknown = [409, 429, 500, 502, 503, 504, 302];
  for (const flow of ["sale", "payout"] as const) {
    for (const http of unavailable) t.equal(writeOutcome(flow, http, {}).kind, "unavailable", `${flow} HTTP ${http}: unavailable`);
    for (const http of unknown) t.equal(writeOutcome(flow, http, {}).kind, "unknown", `${flow} HTTP ${http}: unknown`);
  }
  t.equal(writeOutcome("refund", 403, undefined).kind, "declined", "refund HTTP 403: Checkout will not refund this payment");
  for (const http of [401, 404, 422]) t.equal(writeOutcome("refund", http, {}).kind, "unavailable", `refund HTTP ${http}: unavailable`);
  for (const http of [409, 429, 500]) t.equal(writeOutcome("refund", http, {}).kind, "unknown", `refund HTTP ${http}: unknown`);
  for (const http of [401, 403, 404, 422, 429, 500, 502]) t.equal(lookupOutcome(http, {}).kind, "unknown", `lookup HTTP ${http}: unknown`);
});

t.test("answers the tables cannot read are unknown, never declined", async (t) => {
  t.match(paymentOutcome("sale", { id: "pay_x", status: "Teleported" }), { kind: "unknown", transactionId: "pay_x" }, "an unlisted status");
  t.match(paymentOutcome("sale", { status: "Authorized" }), { kind: "unknown", transactionId: "" }, "an approval without a payment id");
  t.match(paymentOutcome("lookup", { id: "pay_x", status: "Authorized", approved: false }), { kind: "unknown" }, "a status that contradicts `approved`");
  t.match(writeOutcome("refund", 202, { reference: "7" }), { kind: "unknown" }, "a refund accepted without its action id");
  t.match(writeOutcome("sale", 201, undefined), { kind: "unknown" }, "a 201 without a body");
});

t.test("a 3-D Secure answer is a challenge only with Checkout's http(s) redirect link", async (t) => {
  const pending = (href?: string) => ({ id: "pay_x", status: "Pending", ...(href === undefined ? {} : { _links: { redirect: { href } } }) });
  t.match(writeOutcome("sale", 202, pending("https://3ds.example/a")), { kind: "challenge", redirectUrl: "https://3ds.example/a" });
  t.match(writeOutcome("sale", 202, pending()), { kind: "pending" }, "no link: the answer comes later");
  t.match(writeOutcome("sale", 202, pending("javascript:alert(1)")), { kind: "pending" }, "not a web address: never sent to a browser");
  t.match(lookupOutcome(200, pending("https://3ds.example/a")), { kind: "pending" }, "a lookup never opens a challenge");
});

t.test("a refund's action, once Checkout.com has decided it", async (t) => {
  t.same(refundActionOutcome({ id: "act_a", type: "Refund", approved: true, response_code: "10000" }), { kind: "approved", transactionId: "act_a" });
  t.match(refundActionOutcome({ id: "act_a", type: "Refund", approved: false, response_code: "20158" }), {
    kind: "retryable",
    code: "20158",
    message: "Refund validity period has expired",
  });
  t.same(refundActionOutcome({ id: "act_a", type: "Refund" }), { kind: "pending", transactionId: "act_a" });
});

t.test("a refund found among its sale's actions (GET /payments/{id}/actions), by action id or by our reference", async (t) => {
  const listed = answer("actions-spec-example");
  const refundId = "act_fd3h6evhpn3uxdoqbuu3lqnqbm";
  t.same(refundActionsOutcome(listed.http, listed.body, { actionId: refundId }), { kind: "approved", transactionId: refundId }, "the spec's approved Refund");
  // The spec's example refund names no reference; a refund Cashier asked for carries its trace_id as `reference`
  // (PaymentAction.reference, "your reference for the action"), which is how a lost answer is found again.
  const ours = listed.body.map((a: Record<string, unknown>) => (a.type === "Refund" ? { ...a, reference: "4102" } : a));
  t.same(refundActionsOutcome(200, ours, { reference: "4102" }), { kind: "approved", transactionId: refundId }, "by the refund's trace_id");
  t.same(
    refundActionsOutcome(200, ours, { reference: "4103" }),
    { kind: "unavailable", message: "the payment lists no refund with this reference", mayArriveLate: true },
    "no refund of ours: not taken, but it may yet arrive",
  );
  const authorization = listed.body.find((a: Record<string, unknown>) => a.type === "Authorization");
  t.match(
    refundActionsOutcome(200, listed.body, { reference: authorization.reference }),
    { kind: "unavailable" },
    "the sale's own action with that reference is not a refund: a refund is never settled by its sale's outcome",
  );
  const captured = answer("actions-captured");
  t.match(
    refundActionsOutcome(captured.http, captured.body, { reference: "4102" }),
    { kind: "unavailable", mayArriveLate: true },
    "SDK's recorded list: no refund",
  );
  t.match(refundActionsOutcome(200, captured.body, { actionId: "act_t6ksnbs3tguu7iblmk22jjimca" }), { kind: "unknown" }, "a capture's id is no refund");
  t.match(refundActionsOutcome(200, [], { actionId: refundId }), { kind: "unknown", transactionId: refundId }, "a known refund missing: asked again");
  const declined = [{ id: refundId, type: "Refund", approved: false, response_code: "20158", reference: "4102" }];
  t.match(refundActionsOutcome(200, declined, { reference: "4102" }), { kind: "retryable", transactionId: refundId, code: "20158" }, "declined by its code");
  const pending = [{ id: refundId, type: "Refund", reference: "4102", response_code: "10000" }];
  t.same(refundActionsOutcome(200, pending, { reference: "4102" }), { kind: "pending", transactionId: refundId }, "not yet decided");
  t.match(refundActionsOutcome(200, [...ours, ...ours], { reference: "4102" }), { kind: "unknown" }, "two: never a guess");
  for (const http of [401, 404, 500]) t.match(refundActionsOutcome(http, undefined, { reference: "4102" }), { kind: "unknown" }, `HTTP ${http} says nothing`);
  t.match(refundActionsOutcome(200, { data: [] }, { reference: "4102" }), { kind: "unknown" }, "an answer that is not a list");
});

t.test("what the platform sees from the recorded answers", async (t) => {
  const sees = (name: string, flow: "sale" | "payout", last: boolean) => {
    const a = answer(name);
    const d = decide(flow, writeOutcome(flow, a.http, a.body), last);
    return `${d.to?.status ?? "stays"}${d.to && "letter" in d.to ? `:${d.to.letter}` : ""}${d.depositState ? `/${d.depositState}` : ""}`;
  };
  t.equal(sees("sale-authorized", "sale", true), "approved");
  t.equal(sees("sale-declined-20005", "sale", false), "declined_retry", "20005 is a soft decline: the cascade goes on");
  t.equal(sees("sale-declined-20005", "sale", true), "declined/N", "...and the last account's soft decline is the decline");
  t.equal(sees("sale-3ds-pending", "sale", true), "pending_async");
  t.equal(sees("invalid-request", "sale", true), "declined/E", "refused: nothing was taken");
  t.equal(sees("bad-gateway", "sale", true), "stays", "a 502 may have been taken: asked again");
  t.equal(sees("payout-paid", "payout", true), "approved:Y");
});
