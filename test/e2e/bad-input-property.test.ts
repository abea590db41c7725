/**
 * Bad input never costs the service a 5xx or an INTERNAL (issue 8, point 4):
 * generated bodies, member names, values, paths, forms and raw bytes are
 * thrown at the running edge, and generated, truncated, damaged and random
 * messages at every RPC of the engine. Every answer must be the caller's
 * fault (4xx, INVALID_ARGUMENT and kin), named, with no internal text.
 * The counterexamples found so far stay as plain tests below the properties.
 */
import t from "tap";
import fc from "fast-check";
import { status as GrpcStatus } from "@grpc/grpc-js";
import { create, createFileRegistry, toBinary, type DescMessage } from "@bufbuild/protobuf";
import { EngineService, ListTransactionsRequestSchema, ProcessRequestSchema, WireViolationKind } from "../../gen/cashier/engine/v1/engine_service_pb.js";
import { TransactionType } from "../../gen/cashier/engine/v1/transaction_pb.js";
import { ErrorReason } from "../../gen/cashier/engine/v1/errors_pb.js";
import {
  AdminService,
  CreateMerchantRequestSchema,
  UpdateFrontendRequestSchema,
  UpdateMerchantRequestSchema,
} from "../../gen/cashier/admin/v1/admin_service_pb.js";
import { saleInit } from "../support/engine-request.ts";
import { SERVICE_TOKEN, useService } from "../support/service.ts";
import { SECRET } from "../support/merchants.ts";
import { canonical as canonicalOf, hmacHex } from "../support/signer.ts";
import { processSale, saleBody } from "../support/wire.ts";
import { ISSUE_WORDS, PROTOTYPE_WORDS, hostileName, hostileText, jsonMemberText, jsonValueText, objectText } from "../support/hostile-input.ts";
import { damagedArb, malformed, nearlyValidArb, noiseArb, truncatedArb, wellFormedArb } from "../support/proto-arbitraries.ts";
import { rawGrpc, type RawGrpc } from "../support/raw-grpc.ts";
import { healthFileDescriptor } from "../../engine/rpc/health-descriptor.ts";

const service = useService(t);
/** Runs per property: 150 keeps the file near 10 s; FUZZ_RUNS=5000 searches deeper by hand. */
const RUNS = Number(process.env.FUZZ_RUNS) || 150;

interface HttpAnswer {
  method: string;
  http: number;
  type: string;
  text: string;
}

async function send(path: string, init: { method?: string; contentType?: string; body?: string | Uint8Array } = {}): Promise<HttpAnswer> {
  const headers: Record<string, string> = {};
  if (init.contentType !== undefined) headers["content-type"] = init.contentType;
  const method = init.method ?? "POST";
  const res = await fetch(`${service().edgeUrl}${path}`, {
    method,
    headers,
    body: method === "GET" || method === "HEAD" ? undefined : init.body,
    redirect: "manual",
  });
  return { method, http: res.status, type: res.headers.get("content-type") ?? "", text: await res.text() };
}

/** Text that only a leaked error or stack trace would hold. */
const LEAK = /\b(Type|Range|Syntax|Reference)?Error: |\n\s+at \S|\bat \S+ \(.*:\d+:\d+\)|node:internal|file:\/\/\/|Internal error/;

/** Throws, naming the answer, unless it is a caller's-fault answer with nothing internal in it. */
function checkAnswer(a: HttpAnswer, what: string): void {
  const fail = (why: string) => {
    throw new Error(`${what}: ${why}: HTTP ${a.http} ${a.text.slice(0, 300)}`);
  };
  if (a.http >= 500) fail("a 5xx");
  if (LEAK.test(a.text)) fail("internal text in the reply");
  // HEAD answers carry no body to judge.
  if (a.http >= 400 && a.type.startsWith("application/json") && a.method !== "HEAD") checkJsonRefusal(a, fail);
}

function checkJsonRefusal(a: HttpAnswer, fail: (why: string) => never): void {
  let body: { status?: unknown; description?: unknown } = {};
  try {
    body = JSON.parse(a.text);
  } catch {
    fail("a reply that is not JSON");
  }
  if (typeof body.status !== "number" || !(body.status > 0)) fail("no positive numeric status");
  if (typeof body.description !== "string" || body.description === "") fail("no description");
}

/** A Process reply is always the wire's JSON: status 0 with 200, a positive status with a 4xx. */
function checkProcessAnswer(a: HttpAnswer, what: string): void {
  checkAnswer(a, what);
  if (!a.type.startsWith("application/json")) throw new Error(`${what}: not JSON: HTTP ${a.http} ${a.type}`);
  const body = JSON.parse(a.text) as { status?: unknown; description?: unknown };
  if (typeof body.status !== "number" || typeof body.description !== "string") throw new Error(`${what}: not the wire reply: ${a.text.slice(0, 300)}`);
  if (a.http === 200 && body.status !== 0) throw new Error(`${what}: HTTP 200 with status ${String(body.status)}`);
}

const STRING_FIELDS = [
  "transaction_type",
  "currency",
  "country",
  "frontend",
  "merchant_id",
  "version",
  "state",
  "order_id",
  "card_number",
  "card_exp",
  "cvv",
  "email",
  "pin",
  "zip",
  "return_url",
  "reference_id",
  "phone",
];
const INT_FIELDS = ["amount", "timestamp", "error_code"];

/** A body as members' JSON text: the sale's, some replaced by hostile values, some added with hostile names. */
const membersArb: fc.Arbitrary<[string, string][]> = fc
  .tuple(
    fc.uniqueArray(fc.constantFrom(...STRING_FIELDS, ...INT_FIELDS), { maxLength: 4 }),
    fc.array(jsonMemberText, { minLength: 4, maxLength: 4 }),
    fc.array(fc.tuple(hostileName, jsonMemberText), { maxLength: 2 }),
  )
  .map(([replaced, values, extra]) => {
    const base = saleBody();
    const members: [string, string][] = Object.entries(base).map(([k, v]) => [k, JSON.stringify(v)]);
    replaced.forEach((field, i) => {
      const at = members.findIndex(([k]) => k === field);
      if (at >= 0) members[at] = [field, values[i]];
      else members.push([field, values[i]]);
    });
    return [...members, ...extra];
  });

/**
 * The signature a platform would compute for the body it sends. Object and
 * array members (which the seed forbids) are signed as their JSON text:
 * String() of {"toString": ""} would throw in the signer itself.
 */
function signatureFor(text: string, secret: string): string {
  const members = Object.entries(JSON.parse(text) as Record<string, unknown>).map(([k, v]) => [k, v !== null && typeof v === "object" ? JSON.stringify(v) : v]);
  return hmacHex(secret, canonicalOf(Object.fromEntries(members)));
}

/** Mostly the merchant's true signature, so most bodies reach the engine's rules. */
const signatureArb = fc.oneof(
  { weight: 5, arbitrary: fc.constant("good" as const) },
  { weight: 1, arbitrary: fc.constant("wrong-secret" as const) },
  { weight: 1, arbitrary: fc.constant("none" as const) },
  { weight: 1, arbitrary: hostileText.map((s) => ({ literal: s })) },
);

t.test("signed or not, any JSON body to /api/process is answered 200 or 4xx in the wire's shape", async () => {
  await fc.assert(
    fc.asyncProperty(membersArb, signatureArb, async (members, sig) => {
      const unsigned = objectText(members);
      let text = unsigned;
      if (sig !== "none") {
        const signature = sig === "good" ? signatureFor(unsigned, SECRET) : sig === "wrong-secret" ? signatureFor(unsigned, "not-the-secret-000") : sig.literal;
        text = objectText([...members, ["signature", JSON.stringify(signature)]]);
      }
      checkProcessAnswer(await send("/api/process", { contentType: "application/json", body: text }), text.slice(0, 500));
    }),
    { numRuns: RUNS },
  );
});

t.test("a prototype word in any string field of a signed body is a refusal naming that field, or a normal answer", async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...STRING_FIELDS), fc.constantFrom(...PROTOTYPE_WORDS), async (field, word) => {
      const members: [string, string][] = Object.entries(saleBody({ [field]: word })).map(([k, v]) => [k, JSON.stringify(v)]);
      const text = objectText([...members, ["signature", JSON.stringify(signatureFor(objectText(members), SECRET))]]);
      const a = await send("/api/process", { contentType: "application/json", body: text });
      checkProcessAnswer(a, `${field}=${word}`);
      // A word may be a fine order_id, pin or zip; where it is not, the refusal says which field.
      const { description } = JSON.parse(a.text) as { description: string };
      if (a.http !== 200 && !description.includes(field)) throw new Error(`${field}=${word}: HTTP ${a.http} does not name ${field}: ${description}`);
    }),
    { numRuns: STRING_FIELDS.length * PROTOTYPE_WORDS.length },
  );
});

const contentTypeArb = fc.oneof(
  fc.constantFrom(
    "application/json",
    "application/json; charset=utf-16",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "APPLICATION/JSON",
    "",
  ),
  fc.stringMatching(/^[\x21-\x7e]{0,30}$/),
);

t.test("raw bytes under any content type are answered 4xx in the wire's shape", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        fc.uint8Array({ maxLength: 300 }),
        jsonValueText.map((s) => new TextEncoder().encode(s)),
      ),
      contentTypeArb,
      async (bytes, type) => {
        checkProcessAnswer(await send("/api/process", { contentType: type, body: bytes }), `${type} ${Buffer.from(bytes).toString("hex").slice(0, 200)}`);
      },
    ),
    { numRuns: RUNS },
  );
});

const segmentArb = fc.oneof(
  fc.constantFrom(
    "api",
    "process",
    "3ds",
    "healthz",
    "1",
    "2147483647",
    "2147483648",
    "0",
    "..",
    ".",
    "",
    "%",
    "%zz",
    "%E0%A4%A",
    "%C0%AF",
    "%00",
    "%2F",
    ...PROTOTYPE_WORDS,
  ),
  hostileText.map((s) => encodeURIComponent(s.toWellFormed())),
);

t.test("any method on any path is answered below 500 without internal text", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"),
      fc.array(segmentArb, { minLength: 1, maxLength: 4 }),
      async (method, segments) => {
        const path = `/${segments.join("/")}`;
        if (path === "/metrics") return;
        checkAnswer(await send(path, { method, contentType: "application/json", body: "{}" }), `${method} ${path}`);
      },
    ),
    { numRuns: RUNS },
  );
});

/** A real open 3-D Secure challenge's path, so forms reach the engine's CompleteChallenge. */
async function openChallengePath(): Promise<string> {
  const r = await processSale(service().edgeUrl, { card_number: "4000000000003220" });
  return new URL(r.body.redirect_url as string).pathname;
}

const formArb = fc
  .array(fc.tuple(fc.oneof(fc.constant("result"), hostileName), fc.oneof(fc.constantFrom("approve", "fail"), hostileText)), { maxLength: 4 })
  .map((pairs) => new URLSearchParams(pairs).toString());

t.test("the 3-D Secure page answers any form on any challenge path below 500 without internal text", async () => {
  const real = await openChallengePath();
  const [, , traceId, mac] = real.split("/");
  const pathArb = fc.oneof(
    fc.constant(real),
    fc.constantFrom(...PROTOTYPE_WORDS).map((w) => `/3ds/${traceId}/${w}`),
    fc.tuple(segmentArb, segmentArb).map(([a, b]) => `/3ds/${a}/${b}`),
    segmentArb.map((s) => `/3ds/${s}/${mac}`),
  );
  await fc.assert(
    fc.asyncProperty(pathArb, fc.constantFrom("GET", "POST"), formArb, contentTypeArb, async (path, method, form, type) => {
      checkAnswer(await send(path, { method, contentType: type === "" ? "application/x-www-form-urlencoded" : type, body: form }), `${method} ${path} ${form}`);
    }),
    { numRuns: RUNS },
  );
});

interface Rpc {
  path: string;
  input: DescMessage;
}

/** Every RPC the engine serves with a schema of ours, read off the generated descriptors. */
const RPCS: Rpc[] = [EngineService, AdminService].flatMap((s) => s.methods.map((m) => ({ path: `/${s.typeName}/${m.name}`, input: m.input })));

const NEVER = new Set([GrpcStatus.INTERNAL, GrpcStatus.UNKNOWN, GrpcStatus.UNAVAILABLE, GrpcStatus.DEADLINE_EXCEEDED, GrpcStatus.UNIMPLEMENTED]);

/** Throws unless the engine's answer is the caller's fault, and INVALID_ARGUMENT naming the cause when the bytes are not a message. */
async function checkRpc(grpc: RawGrpc, rpc: Rpc, bytes: Uint8Array): Promise<void> {
  const a = await grpc.call(rpc.path, bytes);
  const what = `${rpc.path} ${Buffer.from(bytes).toString("hex").slice(0, 400)}`;
  if (NEVER.has(a.code)) throw new Error(`${what}: ${GrpcStatus[a.code]} ${a.details}`);
  if (malformed(rpc.input, bytes)) {
    if (a.code !== GrpcStatus.INVALID_ARGUMENT) throw new Error(`${what}: malformed bytes answered ${GrpcStatus[a.code]} ${a.details}`);
    if (!/^malformed \S+: \S/.test(a.details) || a.details.length > 300) throw new Error(`${what}: the cause is not named: ${a.details}`);
  }
}

const rpcArb = fc.constantFrom(...RPCS);

for (const [name, bytesOf] of [
  ["random bytes", () => noiseArb],
  ["truncated messages", truncatedArb],
  ["damaged messages (wrong wire types, flipped, dropped or added bytes)", damagedArb],
  ["well-formed messages with hostile values in every field", wellFormedArb],
] as [string, (d: DescMessage) => fc.Arbitrary<Uint8Array>][]) {
  t.test(`${name} to every engine RPC are never INTERNAL or UNKNOWN`, async (t) => {
    const grpc = rawGrpc(service().engineUrl, SERVICE_TOKEN);
    t.teardown(() => grpc.close());
    await fc.assert(
      fc.asyncProperty(
        rpcArb.chain((rpc) => bytesOf(rpc.input).map((bytes) => ({ rpc, bytes }))),
        async ({ rpc, bytes }) => checkRpc(grpc, rpc, bytes),
      ),
      { numRuns: RUNS },
    );
  });
}

/**
 * Valid requests of the RPCs with the most rules, for merchants the edge
 * properties do not sign as (m-other, m-manual), before one to three fields
 * are given hostile values.
 */
const NEARLY_VALID: [string, DescMessage, fc.Arbitrary<Record<string, unknown>>][] = [
  [
    "/cashier.engine.v1.EngineService/Process",
    ProcessRequestSchema,
    fc.uuid().map((id) => saleInit({ merchantId: "m-other", orderId: id, frontend: "other-usd" }) as Record<string, unknown>),
  ],
  ["/cashier.engine.v1.EngineService/ListTransactions", ListTransactionsRequestSchema, fc.constant({ merchantId: "m-other", pageSize: 10 })],
  [
    // The edge's call: a wire signature and the members it could not type, refused and signed by the engine.
    "/cashier.engine.v1.EngineService/Process",
    ProcessRequestSchema,
    fc.uuid().map((id) => ({
      merchantId: "m-other",
      orderId: id,
      transactionType: TransactionType.SALE,
      amount: { amountMinor: 1050n, currency: "USD" },
      version: "1.0",
      timestamp: 1795000000n,
      wireSignature: { canonical: "amount=1050", signature: "0".repeat(96) },
      wireViolations: [{ field: "amount", kind: WireViolationKind.NOT_INTEGER }],
    })),
  ],
  [
    "/cashier.admin.v1.AdminService/CreateMerchant",
    CreateMerchantRequestSchema,
    fc.uuid().map((id) => ({ merchant: { merchantId: `fz-${id}`, frontends: [{ name: "fz-usd", baseCurrency: "USD" }] }, secret: "fuzz-secret-0123456789" })),
  ],
  [
    "/cashier.admin.v1.AdminService/UpdateMerchant",
    UpdateMerchantRequestSchema,
    fc.constant({ merchant: { merchantId: "m-manual", updatePayoutStatuses: "CAPYJ" }, updateMask: { paths: ["update_payout_statuses"] } }),
  ],
  [
    "/cashier.admin.v1.AdminService/UpdateFrontend",
    UpdateFrontendRequestSchema,
    fc.constant({ merchantId: "m-manual", frontend: { name: "manual-usd", baseCurrency: "USD" } }),
  ],
];

t.test("valid requests with hostile values in a few fields are never INTERNAL or UNKNOWN", async (t) => {
  const grpc = rawGrpc(service().engineUrl, SERVICE_TOKEN);
  t.teardown(() => grpc.close());
  const arb = fc.oneof(...NEARLY_VALID.map(([path, input, valid]) => nearlyValidArb(input, valid).map((bytes) => ({ rpc: { path, input }, bytes }))));
  await fc.assert(
    fc.asyncProperty(arb, async ({ rpc, bytes }) => checkRpc(grpc, rpc, bytes)),
    { numRuns: RUNS },
  );
});

const healthCheckRequest = createFileRegistry(healthFileDescriptor, () => undefined).getMessage("grpc.health.v1.HealthCheckRequest");
if (!healthCheckRequest) throw new Error("grpc.health.v1.HealthCheckRequest is not in the health descriptor");
const HEALTH_CHECK: Rpc = { path: "/grpc.health.v1.Health/Check", input: healthCheckRequest };

t.test("random or damaged bytes to the open health check are never INTERNAL or UNKNOWN", async (t) => {
  const grpc = rawGrpc(service().engineUrl, "");
  t.teardown(() => grpc.close());
  await fc.assert(
    fc.asyncProperty(fc.oneof(noiseArb, damagedArb(HEALTH_CHECK.input)), async (bytes) => {
      const a = await grpc.call(HEALTH_CHECK.path, bytes);
      if (NEVER.has(a.code)) throw new Error(`${Buffer.from(bytes).toString("hex")}: ${GrpcStatus[a.code]} ${a.details}`);
    }),
    { numRuns: RUNS },
  );
});

// Counterexamples, kept as plain tests.

t.test("a signed Process body with a prototype word as transaction_type is a 400 naming transaction_type", async (t) => {
  for (const word of ISSUE_WORDS) {
    const r = await processSale(service().edgeUrl, { transaction_type: word });
    t.equal(r.http, 400, `${word}: HTTP 400`);
    t.equal(r.body.status, 2, `${word}: INVALID_FIELDS`);
    t.match(r.body.description, /transaction_type: must be sale, payout or refund/, `${word}: names transaction_type`);
  }
});

t.test("malformed messages to the engine are INVALID_ARGUMENT naming the cause", async (t) => {
  const grpc = rawGrpc(service().engineUrl, SERVICE_TOKEN);
  t.teardown(() => grpc.close());
  const cases: [string, number[], RegExp][] = [
    ["a string cut short", [0x0a, 0x05, 0x41], /^malformed cashier\.engine\.v1\.ProcessRequest: premature EOF/],
    ["invalid UTF-8 in a string", [0x0a, 0x02, 0xff, 0xfe], /^malformed cashier\.engine\.v1\.ProcessRequest: .*utf-8/i],
    ["wire type 7", [0x0f], /^malformed cashier\.engine\.v1\.ProcessRequest: illegal tag/],
    ["field number 0", [0x00, 0x01], /^malformed cashier\.engine\.v1\.ProcessRequest: illegal tag/],
    ["an 11-byte varint", [0x58, ...Array(10).fill(0xff), 0x01], /^malformed cashier\.engine\.v1\.ProcessRequest: invalid varint/],
  ];
  for (const [name, bytes, cause] of cases) {
    const a = await grpc.call("/cashier.engine.v1.EngineService/Process", Uint8Array.from(bytes));
    t.equal(a.code, GrpcStatus.INVALID_ARGUMENT, `${name}: INVALID_ARGUMENT`);
    t.match(a.details, cause, `${name}: the cause named`);
    t.equal(a.reason, ErrorReason.MALFORMED_BODY, `${name}: reason MALFORMED_BODY`);
  }
  // Text that is not UTF-8 names its field, as every other bad field is named: half of a surrogate pair (ED A0 80),
  // at the top and inside customer (field 6) as first_name (field 3).
  const named: [number[], string][] = [
    [[0x0a, 0x02, 0xff, 0xfe], "merchant_id"],
    [[0x32, 0x05, 0x1a, 0x03, 0xed, 0xa0, 0x80], "customer.first_name"],
  ];
  for (const [bytes, field] of named) {
    const a = await grpc.call("/cashier.engine.v1.EngineService/Process", Uint8Array.from(bytes));
    t.equal(a.code, GrpcStatus.INVALID_ARGUMENT);
    t.same(a.fields, [field], `${field}: named in the ErrorDetail`);
    t.match(a.details, `(field ${field})`);
  }
});

t.test("a malformed message from a caller without a token is UNAUTHENTICATED, not judged", async (t) => {
  const grpc = rawGrpc(service().engineUrl, "not-a-token");
  t.teardown(() => grpc.close());
  const a = await grpc.call("/cashier.admin.v1.AdminService/GetMerchant", Uint8Array.of(0x0a, 0x05));
  t.equal(a.code, GrpcStatus.UNAUTHENTICATED);
});

t.test("a well-formed Process with a prototype word in every string field is INVALID_ARGUMENT", async (t) => {
  const grpc = rawGrpc(service().engineUrl, SERVICE_TOKEN);
  t.teardown(() => grpc.close());
  for (const word of PROTOTYPE_WORDS) {
    const req = create(ProcessRequestSchema, {
      merchantId: word,
      orderId: word,
      frontend: word,
      returnUrl: word,
      notificationUrl: word,
      referenceId: word,
      version: word,
      errorDetails: word,
      amount: { amountMinor: 1n, currency: word },
      card: { number: word, cvv: word, expiry: word },
      customer: {
        pin: word,
        email: word,
        firstName: word,
        lastName: word,
        dob: word,
        phone: word,
        address: word,
        city: word,
        country: word,
        state: word,
        zip: word,
        requesterIp: word,
      },
    });
    const a = await grpc.call("/cashier.engine.v1.EngineService/Process", toBinary(ProcessRequestSchema, req));
    t.equal(a.code, GrpcStatus.INVALID_ARGUMENT, `${word}: INVALID_ARGUMENT (${a.details.slice(0, 80)})`);
  }
});

t.test("a time filter outside google.protobuf.Timestamp's range is INVALID_ARGUMENT naming it", async (t) => {
  const grpc = rawGrpc(service().engineUrl, SERVICE_TOKEN);
  t.teardown(() => grpc.close());
  const cases: [string, Record<string, unknown>][] = [
    ["end_time", { endTime: { seconds: -(2n ** 63n) } }],
    ["start_time", { startTime: { seconds: 2n ** 62n } }],
    ["start_time", { startTime: { seconds: 0n, nanos: -1 } }],
    ["end_time", { endTime: { seconds: 253_402_300_800n } }],
  ];
  for (const [field, over] of cases) {
    const req = create(ListTransactionsRequestSchema, { merchantId: "m-other", pageSize: 10, ...over });
    const a = await grpc.call("/cashier.engine.v1.EngineService/ListTransactions", toBinary(ListTransactionsRequestSchema, req));
    t.equal(a.code, GrpcStatus.INVALID_ARGUMENT, `${field}: INVALID_ARGUMENT`);
    t.match(a.details, new RegExp(`^${field}: must be a timestamp from 0001-01-01 to 9999-12-31`), `${field}: named`);
  }
});

t.test("malformed bytes to the health check are INVALID_ARGUMENT naming the cause", async (t) => {
  const grpc = rawGrpc(service().engineUrl, "");
  t.teardown(() => grpc.close());
  const a = await grpc.call(HEALTH_CHECK.path, Uint8Array.of(0x0f));
  t.equal(a.code, GrpcStatus.INVALID_ARGUMENT);
  t.match(a.details, /^malformed request of \/grpc\.health\.v1\.Health\/Check: \S/);
});

t.test("a body nested 30,000 deep or with 4,000 members is refused as the caller's fault", async (t) => {
  const deep = await send("/api/process", { contentType: "application/json", body: `{"a":${"[".repeat(30_000)}${"]".repeat(30_000)}}` });
  t.equal(deep.http, 400);
  t.match(JSON.parse(deep.text), { status: 2, description: /a: must be a scalar/ });
  const members: [string, string][] = Array.from({ length: 4000 }, (_, i) => [`k${i}`, "1"]);
  const wide = await send("/api/process", { contentType: "application/json", body: objectText(members) });
  t.equal(wide.http, 400);
  t.match(JSON.parse(wide.text), { status: 2, description: /merchant_id: is required/ });
});

t.test("nothing above was logged as an internal failure", async (t) => {
  const failures = service()
    .logs()
    .split("\n")
    .filter((line) => /"msg":"(rpc failed|request failed|challenge page failed)"/.test(line));
  t.same(failures, [], "no rpc or request failed");
});
