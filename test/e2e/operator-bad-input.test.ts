/**
 * Bad input to the Backoffice's calls never costs the engine an INTERNAL:
 * random, truncated and damaged bytes, and well-formed messages with hostile
 * values in every field, to every RPC of the console's three services, both without a
 * session and with a signed-in admin's session put into the context (so the
 * hostile values reach the handlers behind the role check). Every answer is
 * the caller's fault, and malformed bytes are INVALID_ARGUMENT naming the cause.
 */
import t from "tap";
import fc from "fast-check";
import { status as GrpcStatus } from "@grpc/grpc-js";
import { create, type DescMessage, fromBinary, toBinary } from "@bufbuild/protobuf";
import { ConsoleAuthService } from "../../gen/cashier/admin/v1/console_auth_service_pb.js";
import { ConsoleSettingsService } from "../../gen/cashier/admin/v1/console_settings_service_pb.js";
import { ConsoleWorkService } from "../../gen/cashier/admin/v1/console_work_service_pb.js";
import { movableClock } from "../support/clock.ts";
import { backofficeClient, enrolOperator } from "../support/operators.ts";
import { damagedArb, malformed, messageInitArb, noiseArb, truncatedArb } from "../support/proto-arbitraries.ts";
import { rawGrpc } from "../support/raw-grpc.ts";
import { SERVICE_TOKEN, useService } from "../support/service.ts";

const RUNS = Number(process.env.FUZZ_RUNS) || 100;
const clock = movableClock();
const svc = useService(t, {}, { now: clock.now });

const RPCS = [ConsoleAuthService, ConsoleWorkService, ConsoleSettingsService].flatMap((s) =>
  s.methods.map((m) => ({ path: `/${s.typeName}/${m.name}`, input: m.input as DescMessage })),
);
const NEVER = new Set([GrpcStatus.INTERNAL, GrpcStatus.UNKNOWN, GrpcStatus.UNAVAILABLE, GrpcStatus.DEADLINE_EXCEEDED, GrpcStatus.UNIMPLEMENTED]);

let session = "";
t.before(async () => {
  session = (await enrolOperator(svc(), backofficeClient(svc().engineUrl), clock, "fuzz-admin", "admin")).sessionToken;
});

/** A well-formed message of hostile values, with the admin's session in its context when `signedIn`. */
const hostile = (desc: DescMessage, signedIn: boolean) =>
  messageInitArb(desc).map((init) => {
    const msg = create(desc, init as never) as Record<string, unknown>;
    if (signedIn && "context" in msg) msg.context = { ...((msg.context as object) ?? {}), sessionToken: session, $typeName: "cashier.admin.v1.ConsoleContext" };
    return toBinary(desc, fromBinary(desc, toBinary(desc, msg as never)) as never);
  });

for (const [name, bytesOf] of [
  ["random bytes", () => noiseArb],
  ["truncated messages", truncatedArb],
  ["damaged messages", damagedArb],
  ["hostile values, no session", (d: DescMessage) => hostile(d, false)],
  ["hostile values behind an admin's session", (d: DescMessage) => hostile(d, true)],
] as [string, (d: DescMessage) => fc.Arbitrary<Uint8Array>][]) {
  t.test(`${name} to every console RPC are never INTERNAL or UNKNOWN`, async (t) => {
    const grpc = rawGrpc(svc().engineUrl, SERVICE_TOKEN);
    t.teardown(() => grpc.close());
    const signedIn = name.includes("admin's session");
    // Signing out would end the session the other calls need.
    const rpcs = signedIn ? RPCS.filter((r) => !r.path.endsWith("/SignOut")) : RPCS;
    let reached = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...rpcs).chain((rpc) => bytesOf(rpc.input).map((bytes) => ({ rpc, bytes }))),
        async ({ rpc, bytes }) => {
          const a = await grpc.call(rpc.path, bytes);
          const what = `${rpc.path} ${Buffer.from(bytes).toString("hex").slice(0, 300)}`;
          if (NEVER.has(a.code)) throw new Error(`${what}: ${GrpcStatus[a.code]} ${a.details}`);
          if (malformed(rpc.input, bytes) && a.code !== GrpcStatus.INVALID_ARGUMENT) throw new Error(`${what}: malformed bytes answered ${GrpcStatus[a.code]}`);
          if (a.code !== GrpcStatus.UNAUTHENTICATED) reached++;
        },
      ),
      { numRuns: RUNS },
    );
    t.pass(`${RUNS} calls, each answered as the caller's fault`);
    if (signedIn) t.ok(reached > RUNS / 2, `most calls got past the session check (${reached} of ${RUNS})`);
  });
}

t.test("a merchant id with a NUL names no merchant: INVALID_ARGUMENT naming the field, not the driver's error", async (t) => {
  // The lookup sent the id to Postgres: a NUL came back as a vague "value is not acceptable", and once, in the
  // property test above, as a protocol error (08P01) and an INTERNAL. An id no merchant can have is now none.
  const refused = await svc()
    .admin.createOperator({ login: "nul-scope", role: 1, merchantIds: ["m\u0000x"], operator: "tests" })
    .then(() => undefined)
    .catch((err: { code?: number; rawMessage?: string }) => err);
  t.equal(refused?.code, 3, "INVALID_ARGUMENT");
  t.match(refused?.rawMessage ?? "", /merchant_ids: names no merchant/);
});
