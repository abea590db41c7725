/**
 * The adyen connector's status tables: every (flow, resultCode) pair
 * enumerated with the outcome it gives, every recorded answer (Adyen's
 * documented examples, the Node library's mocks) classified, and the HTTP
 * errors, where "may have been taken" is unknown, never a decline.
 */
import { readdirSync, readFileSync } from "node:fs";
import t from "tap";
import { decide, type ProcessorOutcome } from "../../../../../../engine/payments/domain/outcome.ts";
import {
  refundOutcome,
  RESULT_CODES,
  type ResultCode,
  SALE_STATUS_TABLES,
  type SaleFlow,
  saleOutcome,
} from "../../../../../../engine/payments/processors/adyen/transformers.ts";

type Kind = ProcessorOutcome["kind"];
const redirect = { type: "redirect", method: "GET", url: "https://checkoutshopper-test.adyen.com/checkoutshopper/threeDS/redirect?MD=x" };

/** Every result code -> the outcome it gives a sale attempt, with a pspReference and (for the action codes) a GET redirect. */
const EXPECTED: Record<ResultCode, Kind> = {
  AuthenticationFinished: "unavailable",
  AuthenticationNotRequired: "unavailable",
  Authorised: "approved",
  Cancelled: "declined",
  ChallengeShopper: "challenge",
  Error: "unavailable",
  IdentifyShopper: "challenge",
  PartiallyAuthorised: "unknown",
  Pending: "pending",
  PresentToShopper: "unavailable",
  Received: "pending",
  RedirectShopper: "challenge",
  Refused: "declined",
  Success: "unknown",
};

t.test("every (flow, resultCode) pair gives the outcome the table says", async (t) => {
  const flows: SaleFlow[] = ["payments", "details"];
  t.same(Object.keys(SALE_STATUS_TABLES).sort(), [...flows].sort(), "a table for each call of a sale");
  for (const flow of flows) {
    t.same(Object.keys(SALE_STATUS_TABLES[flow]).sort(), [...RESULT_CODES].sort(), `${flow}: every result code placed`);
    for (const code of RESULT_CODES) {
      const out = saleOutcome(flow, { http: 200, body: { resultCode: code, pspReference: "PSP1", action: redirect } });
      t.equal(out.kind, EXPECTED[code], `${flow} ${code} (${SALE_STATUS_TABLES[flow][code]}): ${EXPECTED[code]}`);
      if ("transactionId" in out && out.kind !== "unknown") t.equal(out.transactionId, "PSP1", `${flow} ${code}: Adyen's pspReference kept`);
    }
  }
  const challenge = saleOutcome("payments", { http: 200, body: { resultCode: "RedirectShopper", pspReference: "PSP1", action: redirect } });
  t.same(challenge, { kind: "challenge", transactionId: "PSP1", redirectUrl: redirect.url }, "the shopper goes to Adyen's own page");
});

interface Recorded {
  source: string;
  flow: SaleFlow | "refund";
  http: number;
  body: any;
}

const dir = new URL("../../../../../fixtures/adyen/answers/", import.meta.url);
const recorded = (name: string): Recorded => JSON.parse(readFileSync(new URL(`${name}.json`, dir), "utf8"));
const outcomeOf = (r: Recorded): ProcessorOutcome => (r.flow === "refund" ? refundOutcome(r) : saleOutcome(r.flow, r));

/** Recorded answer -> the outcome it must give. */
const RECORDED: [name: string, outcome: Partial<ProcessorOutcome> & { kind: Kind }][] = [
  ["payments-authorised-docs", { kind: "approved", transactionId: "993617895204576J" }],
  ["payments-authorised-node", { kind: "approved", transactionId: "8535296650153317" }],
  [
    "payments-redirect-docs",
    { kind: "challenge", transactionId: "JLCMPCQ8HXSKGK82", redirectUrl: "https://checkoutshopper-test.adyen.com/checkoutshopper/threeDS/redirect..." },
  ],
  ["payments-redirect-node", { kind: "challenge", transactionId: "JLCMPCQ8HXSKGK82" }],
  ["payments-identify-shopper-docs", { kind: "unavailable", message: "Adyen asked for a threeDS2 action (IdentifyShopper); Cashier follows redirects only" }],
  ["payments-identify-shopper-node", { kind: "unavailable" }],
  ["payments-refused-docs", { kind: "declined", transactionId: "89783918347627F", code: "adyen-2", message: "Refused" }],
  ["details-authorised-docs", { kind: "approved", transactionId: "V4HZ4RBFJGXXGN82" }],
  ["details-authorised-node", { kind: "approved", transactionId: "8515232733321252" }],
  ["refund-received-docs", { kind: "pending", transactionId: "993617894906488A" }],
  ["error-400-docs", { kind: "unavailable", message: 'Adyen refused the request (HTTP 400 702 validation: Unexpected input: ", expected: })' }],
  ["error-401-docs", { kind: "unavailable", message: "Adyen refused the credentials (HTTP 401 000 security)" }],
  ["error-403-docs", { kind: "unavailable", message: "Adyen refused the credentials (HTTP 403 901 security)" }],
  ["error-422-docs", { kind: "unavailable", message: "Adyen refused the request (HTTP 422 14_030 validation: Return URL is missing.)" }],
  ["error-500-docs", { kind: "unavailable", message: "Adyen refused the request (HTTP 500 905 configuration: Payment details are not supported)" }],
];

t.test("every recorded answer classifies as the tables say", async (t) => {
  const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
  t.same(RECORDED.map(([n]) => `${n}.json`).sort(), files.sort(), "every recorded answer has its expected outcome");
  for (const [name, expected] of RECORDED) t.match(outcomeOf(recorded(name)), expected, `${name}: ${expected.kind}`);
});

t.test("what the platform sees from the recorded answers", async (t) => {
  const sees = (name: string, last: boolean) => {
    const d = decide("sale", outcomeOf(recorded(name)), last);
    return `${d.to?.status ?? "stays"}${d.depositState ? `/${d.depositState}` : ""}${d.errorCode ? `/${d.errorCode}` : ""}`;
  };
  t.equal(sees("payments-authorised-docs", true), "approved");
  t.equal(sees("payments-redirect-docs", true), "pending_async", "the shopper is sent to Adyen's 3-D Secure page");
  t.equal(sees("payments-refused-docs", false), "declined/N/9006", "Adyen's code is never read as an ISO 8583 code: 9006, code kept");
  t.equal(sees("error-401-docs", false), "declined/E/9001", "refused credentials: nothing was taken");
  t.equal(sees("refund-received-docs", true), "stays", "a refund waits for its notification");
});

t.test("refusals go through the code table; the code is Adyen's, namespaced", async (t) => {
  const rows: [resultCode: string, code: string, reason: string, expected: { kind: Kind; code?: string; message?: string }][] = [
    ["Refused", "24", "CVC Declined", { kind: "declined", code: "adyen-24", message: "CVC Declined" }],
    ["Refused", "9", "Issuer Unavailable", { kind: "retryable", code: "adyen-9" }],
    ["Refused", "38", "Authentication required", { kind: "retryable", code: "adyen-38" }],
    ["Refused", "46", "Transaction blocked by Adyen to prevent excessive retry fees", { kind: "declined", code: "adyen-46" }],
    ["Refused", "99", "Something new", { kind: "declined", code: "adyen-99", message: "Something new" }],
    ["Refused", "", "", { kind: "declined", code: "adyen-refused", message: "Refused" }],
    ["Error", "4", "Acquirer Error", { kind: "retryable", code: "adyen-4" }],
    ["Error", "0", "Unknown", { kind: "unavailable", message: "Adyen could not process the payment: Unknown" }],
    ["Error", "", "", { kind: "unavailable" }],
    ["Cancelled", "22", "FRAUD-CANCELLED", { kind: "declined", code: "adyen-22" }],
    ["Cancelled", "", "", { kind: "declined", code: "adyen-cancelled" }],
  ];
  for (const [resultCode, code, reason, expected] of rows) {
    const body = { resultCode, pspReference: "PSP2", refusalReasonCode: code || undefined, refusalReason: reason || undefined };
    t.match(saleOutcome("payments", { http: 200, body }), expected, `${resultCode} ${code || "(no code)"}: ${expected.kind} ${expected.code ?? ""}`);
  }
  const retry = decide("sale", saleOutcome("payments", { http: 200, body: { resultCode: "Refused", pspReference: "P", refusalReasonCode: "9" } }), false);
  t.equal(retry.to?.status, "declined_retry", "a soft refusal is the cascade's cue");
  t.equal(retry.processorCode, "adyen-9");
});

t.test("an action the challenge page cannot render reaches no shopper: unavailable", async (t) => {
  const rows: [what: string, action: unknown][] = [
    [
      "a POST redirect (form post of action.data)",
      { type: "redirect", method: "POST", url: "https://acs.example/pareq", data: { MD: "m", PaReq: "p", TermUrl: "t" } },
    ],
    ["native 3-D Secure 2", { type: "threeDS2", subtype: "challenge", token: "x" }],
    ["a redirect without a URL", { type: "redirect", method: "GET" }],
    ["a redirect to a non-web URL", { type: "redirect", method: "GET", url: "javascript:alert(1)" }],
    ["no action at all", undefined],
  ];
  for (const [what, action] of rows) {
    const out = saleOutcome("payments", { http: 200, body: { resultCode: "RedirectShopper", pspReference: "P", action } });
    t.equal(out.kind, "unavailable", what);
  }
});

t.test("answers that may have been taken are unknown, never a decline", async (t) => {
  const rows: [what: string, flow: SaleFlow | "refund", http: number, body: unknown, transient?: boolean][] = [
    ["an internal error", "payments", 500, { status: 500, errorCode: "000", errorType: "internal" }],
    ["a gateway error without a body", "payments", 502, undefined],
    ["a 503", "details", 503, { errorType: "internal" }],
    ["a transient error (the Transient-Error header)", "payments", 422, { status: 422, errorCode: "000", errorType: "validation" }, true],
    ["704: the same request is still in progress", "payments", 422, { status: 422, errorCode: "704", errorType: "validation" }],
    ["a 200 without a body", "payments", 200, undefined],
    ["a resultCode Adyen has not published", "payments", 200, { resultCode: "Voided", pspReference: "P" }],
    ["Authorised without a pspReference", "payments", 200, { resultCode: "Authorised" }],
    ["Received without a pspReference", "details", 200, { resultCode: "Received" }],
    ["a redirect status", "payments", 302, undefined],
    ["a refund taken without a pspReference", "refund", 201, { status: "received" }],
    ["a refund status Adyen has not published", "refund", 201, { status: "done", pspReference: "R" }],
    ["a refund's internal error", "refund", 500, { errorType: "internal" }],
  ];
  for (const [what, flow, http, body, transient] of rows) {
    const answer = { http, body, transient };
    const out = flow === "refund" ? refundOutcome(answer) : saleOutcome(flow, answer);
    t.equal(out.kind, "unknown", `${what}: unknown`);
    t.equal(decide("sale", out, true).to, undefined, `${what}: the attempt stays and waits`);
  }
  t.equal(saleOutcome("payments", { http: 429, body: { errorType: "validation" } }).kind, "unavailable", "429: refused before processing");
  t.equal(saleOutcome("details", { http: 503, body: undefined }, "PSP9").kind, "unknown");
  t.match(saleOutcome("details", { http: 503, body: undefined }, "PSP9"), { transactionId: "PSP9" }, "a details call keeps the pspReference it had");
  t.match(saleOutcome("details", { http: 200, body: { resultCode: "Authorised" } }, "PSP9"), { kind: "approved", transactionId: "PSP9" });
});
