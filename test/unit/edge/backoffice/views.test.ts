/**
 * The console's views and helpers on fixtures: what an operator or a
 * customer typed is escaped wherever it lands (an order id, a callback's
 * reply, a note), the QR code is an SVG drawn on the server, passkey options
 * cannot close their data block, CSV cells cannot become formulas, typed
 * amounts become exact minor units, and the header offers only the sections
 * the operator's actions open.
 */
import t from "tap";
import { create } from "@bufbuild/protobuf";
import QRCode from "qrcode";
import { CallbackKind, CallbackSchema, CallbackState } from "../../../../gen/cashier/engine/v1/callback_pb.js";
import { TransactionSchema, TransactionStatus, TransactionType } from "../../../../gen/cashier/engine/v1/transaction_pb.js";
import { ConsoleSessionSchema } from "../../../../gen/cashier/admin/v1/console_auth_service_pb.js";
import {
  FourEyesApprovalSchema,
  GetPayoutContextResponseSchema,
  PayoutReason,
  QueuedPayoutSchema,
} from "../../../../gen/cashier/admin/v1/console_work_service_pb.js";
import { payoutPage } from "../../../../edge/backoffice/views/payouts.ts";
import { OperatorRole } from "../../../../gen/cashier/admin/v1/operator_pb.js";
import { MerchantSchema } from "../../../../gen/cashier/admin/v1/merchant_pb.js";
import { merchantPage } from "../../../../edge/backoffice/views/merchants.ts";
import { consoleTranslator } from "../../../../edge/backoffice/i18n.ts";
import { csvLine } from "../../../../edge/backoffice/routes/csv.ts";
import { parseAmountLine } from "../../../../edge/backoffice/routes/merchants.ts";
import { operatorView } from "../../../../edge/backoffice/routes/pages.ts";
import { enrolTotpPage, groupKey, jsonForScript, secondStepPage } from "../../../../edge/backoffice/views/gate.ts";
import { consoleLayout } from "../../../../edge/backoffice/views/layout.ts";
import { detailPage, EXTRA_FILTERS, type Search, searchPage } from "../../../../edge/backoffice/views/transactions.ts";
import { ListTransactionsRequestSchema } from "../../../../gen/cashier/engine/v1/engine_service_pb.js";
import { html } from "../../../../edge/pages/kit/html.ts";

const tr = consoleTranslator("en");
const EMPTY_SEARCH: Search = {
  trace_id: "",
  merchant_id: "",
  order_id: "",
  pin: "",
  status: "",
  type: "",
  from: "",
  to: "",
  email: "",
  card_last_four: "",
  processor: "",
  frontend: "",
  processor_transaction_id: "",
};
const hostile = `<script>alert(1)</script>"'&`;

const tx = create(TransactionSchema, {
  traceId: 42,
  orderId: hostile,
  merchantId: "m1",
  transactionType: TransactionType.SALE,
  status: TransactionStatus.DECLINED,
  amount: { amountMinor: 123456n, currency: "USD" },
  paymentProcessor: "sim-a",
  errorCode: 51,
  errorDetails: hostile,
  card: { maskedNumber: "411111******1111", brand: "VISA" },
  pin: "p1",
  attempt: 1,
  history: [
    { toStatus: TransactionStatus.PENDING, cause: "created" },
    { fromStatus: TransactionStatus.PENDING, toStatus: TransactionStatus.DECLINED, cause: hostile },
  ],
});

t.test("what others typed is escaped in the search and the detail page", async (t) => {
  const search = searchPage(tr, {
    search: { ...EMPTY_SEARCH, merchant_id: hostile },
    transactions: [tx],
    nextPageToken: "tok&en",
    paged: false,
  }).value;
  t.notMatch(search, /<script>alert/);
  t.match(search, /&#60;script&#62;alert\(1\)&#60;\/script&#62;&#34;&#39;&#38;/);
  t.match(search, /1234\.56 USD/, "the amount from integer minor units");
  t.match(search, /page_token=tok%26en/, "the page token is encoded in the link");
  const callback = create(CallbackSchema, {
    id: 7n,
    kind: CallbackKind.NOTIFICATION,
    state: CallbackState.FAILED,
    url: "https://platform.example/cb",
    body: hostile,
    attempts: [{ httpStatus: 500, responseBody: hostile, outcome: "retry", error: "HTTP 500" }],
  });
  const detail = detailPage(tr, { transaction: tx, cascade: [tx], related: [], callbacks: [callback], canRedeliver: true, csrf: "c", notice: undefined }).value;
  t.notMatch(detail, /<script>alert/);
  t.match(detail, /action="\/transactions\/42\/callbacks\/7\/redeliver"/, "a redeliver form for the callback");
  const viewer = detailPage(tr, { transaction: tx, cascade: [tx], related: [], callbacks: [callback], canRedeliver: false, csrf: "c" }).value;
  t.notMatch(viewer, /redeliver"/, "no redeliver form when the role may not");
  const validation = detailPage(tr, {
    transaction: tx,
    cascade: [],
    related: [],
    callbacks: [create(CallbackSchema, { ...callback, kind: CallbackKind.VALIDATION })],
    canRedeliver: true,
    csrf: "c",
  }).value;
  t.notMatch(validation, /redeliver"/, "a Validation is never redelivered");
});

t.test("who made a transaction: the customer in a hosted Cashier session (with the platform's SCOrderID, escaped) or the platform's API", async (t) => {
  const detail = (x: typeof tx) => detailPage(tr, { transaction: x, cascade: [], related: [], callbacks: [], canRedeliver: false, csrf: "c" }).value;
  const hosted = create(TransactionSchema, { ...tx, createdBy: "customer", sessionId: 9n, scOrderId: hostile });
  const page = detail(hosted);
  t.match(page, /<dd id="made-by">Customer, in the hosted Cashier<\/dd>/);
  t.match(page, /<dd id="session">9<\/dd>/);
  t.match(page, /<dd id="sc-order-id"><bdi>&#60;script&#62;alert/, "the platform's SCOrderID, escaped");
  const byApi = detail(create(TransactionSchema, { ...tx, createdBy: "api" }));
  t.match(byApi, /<dd id="made-by">Platform, through the Process API<\/dd>/);
  t.notMatch(byApi, /id="session"|id="sc-order-id"/, "no session for a Process order");
  t.match(
    detail(create(TransactionSchema, { ...tx, createdBy: hostile })),
    /<dd id="made-by">&#60;script&#62;/,
    "another maker as the engine names it, escaped",
  );
  const list = searchPage(tr, { search: EMPTY_SEARCH, transactions: [hosted], nextPageToken: "", paged: false }).value;
  t.match(list, /<th[^>]*>Made by<\/th>/);
  t.match(list, /<td><bdi class="clip" title="Customer, in the hosted Cashier">Customer, in the hosted Cashier<\/bdi><\/td><\/tr>/, "the results say it too");
  for (const locale of ["de", "ar"] as const)
    t.notMatch(
      detailPage(consoleTranslator(locale), { transaction: hosted, cascade: [], related: [], callbacks: [], canRedeliver: false, csrf: "c" }).value,
      /bo\.tx\./,
      `${locale}: every text translated`,
    );
});

t.test("the TOTP QR code is an SVG drawn on the server, with the key in groups of four", async (t) => {
  const svg = await QRCode.toString("otpauth://totp/Cashier:ann?secret=JBSWY3DPEHPK3PXP&issuer=Cashier", { type: "svg" });
  const page = enrolTotpPage(
    { tr, nonce: "n", csrf: "c" },
    { login: "ann", action: "/enrol/x/totp", qrSvg: svg, secret: "JBSWY3DPEHPK3PXP", errors: [] },
  ).value;
  t.match(page, /<div class="qr" role="img" aria-label="QR code to add ann to an authenticator app"><svg/);
  t.match(page, /JBSW Y3DP EHPK 3PXP/);
  t.equal(groupKey("ABCDEFGHIJ"), "ABCD EFGH IJ");
});

t.test("passkey options cannot close their data block", async (t) => {
  const options = JSON.stringify({ challenge: "</script><script>alert(1)</script>" });
  const page = secondStepPage({ tr, nonce: "n", csrf: "c" }, { login: "ann", passkeyOptions: options }).value;
  const block = /<script type="application\/json" id="passkey-options">([\s\S]*?)<\/script>/.exec(page)![1];
  t.same(JSON.parse(block), JSON.parse(options), "the block parses back to the same options");
  t.notMatch(block, /<\/script/i);
  t.equal(jsonForScript("a<b>&"), "a\\u003cb\\u003e\\u0026");
});

t.test("CSV cells: quoted when needed, never a formula", async (t) => {
  t.equal(csvLine(["a", 1, 2n]), "a,1,2\r\n");
  t.equal(csvLine(['say "hi", ok']), '"say ""hi"", ok"\r\n');
  t.equal(csvLine(["=HYPERLINK(1)", "+1", "-2", "@x"]), "'=HYPERLINK(1),'+1,'-2,'@x\r\n");
  t.equal(csvLine([" =1+2", "\u00a0@x", "a =b"]), "' =1+2,'\u00a0@x,a =b\r\n", "also behind leading blanks, not inside the text");
  t.equal(csvLine(["line\nbreak"]), '"line\nbreak"\r\n');
});

t.test("typed amounts become exact minor units in the currency's decimals", async (t) => {
  t.same(parseAmountLine("USD 1000.00"), { currency: "USD", amountMinor: 100000n });
  t.same(parseAmountLine("eur 12,5"), { currency: "EUR", amountMinor: 1250n });
  t.same(parseAmountLine("JPY 5000"), { currency: "JPY", amountMinor: 5000n });
  t.same(parseAmountLine("KWD 1.234"), { currency: "KWD", amountMinor: 1234n });
  t.same(parseAmountLine("USD 99999999999999.99"), { currency: "USD", amountMinor: 9999999999999999n }, "no float on the way");
  for (const bad of ["USD 1.001", "JPY 1.5", "XXX 10", "USD", "10 USD", "USD -5", "USD 1e3"]) t.equal(parseAmountLine(bad), undefined, bad);
});

t.test("the header offers the sections the operator's actions open, and names the operator", async (t) => {
  const session = (role: OperatorRole, actions: string[]) =>
    operatorView(create(ConsoleSessionSchema, { operator: { login: "ann", role }, allowedActions: actions }));
  const viewer = session(OperatorRole.VIEWER, ["transaction.read", "payout.read", "dashboard.read", "merchant.read"]);
  t.same(viewer.sections, ["dashboard", "transactions", "payouts", "stuck", "merchants"]);
  t.equal(viewer.role, "viewer");
  const page = consoleLayout({ tr, nonce: "n", title: "T", body: html`<p>x</p>`, operator: viewer, csrf: "c", section: "payouts" }).value;
  t.match(page, /<a href="\/payouts" aria-current="page">Payouts<\/a>/);
  t.notMatch(page, /href="\/operators"|href="\/audit"/, "no admin links for a viewer");
  t.match(page, /ann \(viewer\)/);
  t.match(page, /<form class="signout" method="post" action="\/signout">/);
  const admin = session(OperatorRole.ADMIN, ["transaction.read", "payout.read", "dashboard.read", "merchant.read", "operator.read", "audit.read"]);
  t.same(admin.sections, ["dashboard", "transactions", "payouts", "stuck", "merchants", "operators", "audit"]);
});

t.test("the search offers a further filter exactly when the engine's request has that field", async (t) => {
  const page = searchPage(tr, { search: EMPTY_SEARCH, transactions: [], nextPageToken: "", paged: false }).value;
  const fields = new Set(ListTransactionsRequestSchema.fields.map((f) => f.name));
  for (const f of EXTRA_FILTERS)
    t.equal(page.includes(`name="${f}"`), fields.has(f), `${f}: ${fields.has(f) ? "offered" : "not offered (the engine has no such filter yet)"}`);
  for (const always of ["trace_id", "merchant_id", "order_id", "pin", "status", "type", "from", "to"]) t.ok(page.includes(`name="${always}"`), always);
});

t.test("a merchant's frontend limits read as money in the currency's own decimals, not in the interface's raw unit", async (t) => {
  const merchant = create(MerchantSchema, {
    merchantId: "m-lim",
    frontends: [
      {
        name: "lim",
        baseCurrency: "USD",
        currencies: ["USD", "BHD"],
        limits: [
          { currency: "USD", depositMin: 500n, depositMax: 500000n },
          { currency: "BHD", withdrawalMax: 5n },
        ],
      },
    ],
  });
  const page = merchantPage(consoleTranslator("en"), {
    merchant,
    accounts: [],
    connectors: [],
    fourEyes: [],
    canUpdate: false,
    canRotate: false,
    csrf: "c",
  }).toString();
  t.match(page, "USD: deposits 5.00 USD to 5000.00 USD; withdrawals – to –.");
  t.match(page, "BHD: deposits – to –; withdrawals – to 5.000 BHD.");
});

t.test("a payout's four eyes: waiting for the second, or decided with two, naming the first approver", async (t) => {
  const payout = (status: TransactionStatus) =>
    create(GetPayoutContextResponseSchema, {
      payout: create(QueuedPayoutSchema, {
        transaction: create(TransactionSchema, { traceId: 4, status, transactionType: TransactionType.PAYOUT, merchantId: "m-a" }),
        fourEyesRequired: true,
        firstApproval: create(FourEyesApprovalSchema, { login: "paya2" }),
      }),
    });
  const waiting = payoutPage(tr, { context: payout(TransactionStatus.REQUESTED), canDecide: true, csrf: "c", login: "paya" }).toString();
  t.match(waiting, "second needed (first: paya2)");
  t.match(waiting, 'id="four-eyes"', "the second approver is told what the approval does");
  const decided = payoutPage(tr, { context: payout(TransactionStatus.APPROVED), canDecide: true, csrf: "c", login: "paya" }).toString();
  t.match(decided, "two (first: paya2)", "decided: two approvals, the first named");
  t.notMatch(decided, 'id="four-eyes"', "and no word about a second approval to give");
  const barred = payoutPage(tr, {
    context: create(GetPayoutContextResponseSchema, { ...payout(TransactionStatus.REQUESTED), secondApprovalIssuedAccess: true }),
    canDecide: true,
    csrf: "c",
    login: "paya",
  }).toString();
  t.match(barred, "the first approver set up your access", "an operator the first approver set up is told the second approval is not theirs");
  t.notMatch(barred, "sends the payout", "and is not promised that their approval sends it");
});

t.test("a four-eyes payout's timeline: the first approval among the status changes, by its time", async (t) => {
  const at = (seconds: number) => ({ seconds: BigInt(seconds), nanos: 0 });
  const payout = create(TransactionSchema, {
    traceId: 9,
    status: TransactionStatus.APPROVED,
    transactionType: TransactionType.PAYOUT,
    merchantId: "m-a",
    history: [
      { toStatus: TransactionStatus.REQUESTED, cause: "created", time: at(1_700_000_000) },
      { fromStatus: TransactionStatus.REQUESTED, toStatus: TransactionStatus.APPROVED, cause: "backoffice:pam", time: at(1_700_000_600) },
    ],
  });
  const firstApproval = create(FourEyesApprovalSchema, { login: "pat", reason: PayoutReason.CHECKS_PASSED, time: at(1_700_000_300) });
  const page = detailPage(tr, { transaction: payout, firstApproval, cascade: [], related: [], callbacks: [], canRedeliver: false, csrf: "c" }).value;
  const timeline = page.slice(page.indexOf('id="timeline"'), page.indexOf('id="cascade"'));
  t.match(timeline, "First of two approvals: pat (Checks passed)", "the first approver and the reason");
  t.match(timeline, "and the first of the two approvals", "the caption says the timeline holds more than status changes");
  const order = ["created", "First of two approvals", "backoffice:pam"].map((s) => timeline.indexOf(s));
  t.ok(order[0] < order[1] && order[1] < order[2], `between the creation and the second approver's change (${order})`);
  const plain = detailPage(tr, { transaction: payout, cascade: [], related: [], callbacks: [], canRedeliver: false, csrf: "c" }).value;
  t.notMatch(plain, "First of two approvals", "no such row without a first approval");
});
