/**
 * The engine over real gRPC, as an internal service or an operator sees it:
 * bearer tokens, typed Process with INVALID_ARGUMENT naming fields, the
 * transaction and its history, listing, reflection (for token holders) and health.
 */
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import t from "tap";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema, ErrorReason } from "../../gen/cashier/engine/v1/errors_pb.js";
import { PayoutLetter, TransactionStatus, TransactionType } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { WireViolationKind } from "../../gen/cashier/engine/v1/engine_service_pb.js";
import { createEngineClient } from "../../edge/engine-client.ts";
import { saleRequest } from "../support/engine-request.ts";
import { SERVICE_TOKEN, useService } from "../support/service.ts";

const run = promisify(execFile);
const service = useService(t);

async function codeOf(p: Promise<unknown>): Promise<ConnectError> {
  try {
    await p;
  } catch (err) {
    return ConnectError.from(err);
  }
  throw new Error("expected the call to fail");
}

t.test("calls without a valid bearer token are UNAUTHENTICATED", async (t) => {
  const none = createEngineClient(service().engineUrl, "");
  t.equal((await codeOf(none.process(saleRequest()))).code, Code.Unauthenticated);
  const wrong = createEngineClient(service().engineUrl, "not-a-token");
  t.equal((await codeOf(wrong.getTransaction({ traceId: 1 }))).code, Code.Unauthenticated);
});

t.test("Process straight to the engine, then GetTransaction with its history", async (t) => {
  const res = await service().client.process(saleRequest());
  const tx = res.transaction!;
  t.equal(tx.status, TransactionStatus.APPROVED);
  t.equal(tx.amount?.amountMinor, 1050n);
  t.equal(tx.card?.maskedNumber, "411111******1111");
  t.equal(tx.card?.brand, "VISA");
  t.equal(res.wireReply, undefined, "no wire signature asked, no wire reply given");
  const got = await service().client.getTransaction({ traceId: tx.traceId });
  t.same(
    got.transaction!.history.map((h) => [h.fromStatus, h.toStatus, h.cause]),
    [
      [TransactionStatus.UNSPECIFIED, TransactionStatus.PENDING, "created"],
      [TransactionStatus.PENDING, TransactionStatus.APPROVED, "processor:approved"],
    ],
  );
  const again = await service().client.process(saleRequest({ orderId: tx.orderId }));
  t.equal(again.transaction!.traceId, tx.traceId);
  t.equal(again.replayed, true);
});

t.test("bad input is INVALID_ARGUMENT naming every field, never INTERNAL", async (t) => {
  const err = await codeOf(
    service().client.process(
      saleRequest({
        amount: { amountMinor: -1n, currency: "ZZZ" },
        card: { number: "123", cvv: "", expiry: "x" },
        transactionType: TransactionType.UNSPECIFIED,
      }),
    ),
  );
  t.equal(err.code, Code.InvalidArgument);
  const [detail] = err.findDetails(ErrorDetailSchema);
  t.equal(detail.reason, ErrorReason.INVALID_FIELDS);
  t.same(
    detail.violations.map((v) => v.field).sort(),
    ["amount.amount_minor", "amount.currency", "card.expiry", "card.number", "transaction_type"],
    "named as the ProcessRequest's fields",
  );
  t.match(err.rawMessage, /card\.number: /, "the message names them the same way");
  const typedByHand = await codeOf(service().client.process(saleRequest({ wireViolations: [{ field: "amount", kind: WireViolationKind.NOT_INTEGER }] })));
  t.equal(typedByHand.code, Code.InvalidArgument, "a body's typing findings without the body's signature");
  t.match(typedByHand.rawMessage, /wire_violations/);
  const huge = await codeOf(service().client.process(saleRequest({ amount: { amountMinor: 2n ** 62n, currency: "USD" } })));
  t.equal(huge.code, Code.InvalidArgument, "an amount beyond 2^53 is named, not overflowed");
  t.match(huge.rawMessage, /amount\.amount_minor: must be a positive integer of at most 9007199254740991 minor units/);
  const lowest = await codeOf(service().client.process(saleRequest({ amount: { amountMinor: -(2n ** 63n), currency: "USD" } })));
  t.match(lowest.rawMessage, /amount\.amount_minor: must be a positive integer/, "the lowest int64 is not called too large");
  const fils = await codeOf(service().client.process(saleRequest({ amount: { amountMinor: 5500n, currency: "BHD" } })));
  t.match(
    fils.rawMessage,
    /amount\.amount_minor: must be a multiple of 1000 minor units: the merchant interface carries BHD in whole units/,
    "gRPC amounts are minor units: the rule says so in them",
  );
  const unknown = await codeOf(service().client.process(saleRequest({ merchantId: "m-nobody" })));
  t.equal(unknown.code, Code.InvalidArgument);
  t.match(unknown.rawMessage, /merchant_id/);
  t.equal((await codeOf(service().client.getTransaction({ traceId: 0 }))).code, Code.InvalidArgument);
  t.equal((await codeOf(service().client.getTransaction({ traceId: 2 ** 31 - 1 }))).code, Code.NotFound);
  t.equal((await codeOf(service().client.listTransactions({ pageSize: -1 }))).code, Code.InvalidArgument);
  t.equal((await codeOf(service().client.listTransactions({ pageToken: "garbage" }))).code, Code.InvalidArgument);
  t.equal(
    (await codeOf(service().client.listTransactions({ status: 99 as TransactionStatus }))).code,
    Code.InvalidArgument,
    "an unknown enum number is named, not ignored",
  );
  t.equal((await codeOf(service().client.listTransactions({ transactionType: 42 as TransactionType }))).code, Code.InvalidArgument);
  const nul = await codeOf(service().client.process(saleRequest({ merchantId: "m-test\u0000" })));
  t.equal(nul.code, Code.InvalidArgument, "a NUL is the caller's mistake");
  t.match(nul.rawMessage, /^merchant_id: must not contain control characters/);
});

t.test("payout letters travel on the typed transaction", async (t) => {
  const res = await service().client.process(
    saleRequest({ transactionType: TransactionType.PAYOUT, card: { number: "4111111111111111", cvv: "", expiry: "12/2030" } }),
  );
  t.equal(res.transaction!.status, TransactionStatus.APPROVED);
  t.equal(res.transaction!.payoutLetter, PayoutLetter.APPROVED);
});

t.test("ListTransactions filters and pages newest first", async (t) => {
  const pin = `pin-${Date.now()}`;
  const made: number[] = [];
  for (let i = 0; i < 5; i++) {
    const r = await service().client.process(saleRequest({ customer: { pin, email: "a@example.com", firstName: "A", lastName: "B", country: "GB" } }));
    made.push(r.transaction!.traceId);
  }
  const seen: number[] = [];
  let pageToken = "";
  do {
    const page = await service().client.listTransactions({ merchantId: "m-test", pin, pageSize: 2, pageToken });
    t.ok(page.transactions.length <= 2);
    seen.push(...page.transactions.map((x) => x.traceId));
    pageToken = page.nextPageToken;
  } while (pageToken);
  t.same(seen, [...made].reverse());
  const declined = await service().client.listTransactions({ merchantId: "m-test", pin, status: TransactionStatus.DECLINED });
  t.equal(declined.transactions.length, 0);
});

t.test("reflection lets buf curl list the services with no proto files, for a service token's holder", async (t) => {
  const refused = await run("node_modules/.bin/buf", ["curl", "--protocol", "grpc", "--http2-prior-knowledge", "--list-services", service().engineUrl]).catch(
    (err: { stderr?: string }) => err,
  );
  t.match((refused as { stderr?: string }).stderr, /not authenticated/i, "without a token, reflection is refused");
  const { stdout } = await run("node_modules/.bin/buf", [
    "curl",
    "--protocol",
    "grpc",
    "--http2-prior-knowledge",
    "--reflect-header",
    `authorization: Bearer ${SERVICE_TOKEN}`,
    "--list-services",
    service().engineUrl,
  ]);
  t.match(stdout, /cashier\.engine\.v1\.EngineService/);
  t.match(stdout, /cashier\.admin\.v1\.AdminService/);
  t.match(stdout, /cashier\.admin\.v1\.ConsoleAuthService/);
  t.match(stdout, /cashier\.admin\.v1\.ConsoleWorkService/);
  t.match(stdout, /cashier\.admin\.v1\.ConsoleSettingsService/);
  t.match(stdout, /grpc\.health\.v1\.Health/);
  // A call described only by reflection: an operator's GetMerchant.
  const got = await run("node_modules/.bin/buf", [
    "curl",
    "--protocol",
    "grpc",
    "--http2-prior-knowledge",
    "-H",
    `authorization: Bearer ${SERVICE_TOKEN}`,
    "--reflect-header",
    "*",
    "--data",
    '{"merchant_id": "m-test"}',
    `${service().engineUrl}/cashier.admin.v1.AdminService/GetMerchant`,
  ]);
  t.match(JSON.parse(got.stdout), { merchant: { merchantId: "m-test", frontends: [{ name: "test-usd" }, { name: "test-eur" }] } });
  t.notMatch(got.stdout, /secret-0123456789/, "no secret in the answer");
});

/** `package.Service` of every service in proto/. */
function protoServices(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith(".proto")) {
        const text = readFileSync(path, "utf8");
        const pkg = /^package ([\w.]+);/m.exec(text)?.[1];
        for (const m of text.matchAll(/^service (\w+) \{/gm)) found.push(`${pkg}.${m[1]}`);
      }
    }
  };
  walk("proto");
  return found.sort();
}

t.test("health reports SERVING while the database answers, overall and for every service reflection lists; the check needs no token", async (t) => {
  // Every service the protos declare (a new one is checked without this list being edited).
  const services = ["", ...protoServices()];
  t.ok(services.includes("cashier.admin.v1.ConsoleRiskService"), "the protos' services are read");
  for (const service_ of services) {
    const { stdout } = await run("node_modules/.bin/buf", [
      "curl",
      "--protocol",
      "grpc",
      "--http2-prior-knowledge",
      // The token opens reflection, buf's way of learning Health's schema; the check itself carries none.
      "--reflect-header",
      `authorization: Bearer ${SERVICE_TOKEN}`,
      "--data",
      JSON.stringify({ service: service_ }),
      `${service().engineUrl}/grpc.health.v1.Health/Check`,
    ]);
    t.match(JSON.parse(stdout), { status: "SERVING" }, service_ || "overall");
  }
});
