/**
 * What a client sees when the service's own resources fail (issue 31): an
 * engine answering UNAVAILABLE for its database (down, failing over, out of
 * disk) or out of reach is a 503 with status -2 and `Retry-After`, never a
 * 500; a fault of ours stays a 500 without one.
 */
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import t from "tap";
import { ErrorDetailSchema, ErrorReason } from "../../../../gen/cashier/engine/v1/errors_pb.js";
import { RETRY_AFTER_SECONDS } from "../../../../edge/engine-down.ts";
import { errorMiddleware } from "../../../../edge/middleware/errors.ts";

/** The few members of Koa's context the middleware writes. */
function fakeContext(path = "/api/process") {
  const headers: Record<string, string> = {};
  const ctx = { path, status: 404, type: "", body: "" as unknown, set: (k: string, v: string) => void (headers[k.toLowerCase()] = v), headers };
  return ctx;
}

async function answer(err: unknown, path?: string) {
  const ctx = fakeContext(path);
  const errors: object[] = [];
  await errorMiddleware({ error: (o) => void errors.push(o) })(ctx as never, async () => {
    throw err;
  });
  return { status: ctx.status, retryAfter: ctx.headers["retry-after"], body: JSON.parse(String(ctx.body)) as { status: number; description: string } };
}

const databaseDown = () =>
  new ConnectError("the database is unavailable; retry later", Code.Unavailable, undefined, [
    { desc: ErrorDetailSchema, value: create(ErrorDetailSchema, { reason: ErrorReason.UNAVAILABLE }) },
  ]);

t.test("an engine whose database is down, failing over or out of disk: 503, status -2, Retry-After", async (t) => {
  const r = await answer(databaseDown());
  t.same({ status: r.status, retryAfter: r.retryAfter, wire: r.body.status }, { status: 503, retryAfter: String(RETRY_AFTER_SECONDS), wire: -2 });
  t.notMatch(r.body.description, /database/, "nothing internal is echoed");
});

t.test("an engine out of reach: 503 with Retry-After too, on the session start's members as well", async (t) => {
  for (const path of ["/api/process", "/api/session"]) {
    const r = await answer(new ConnectError("connect ECONNREFUSED 127.0.0.1:50051", Code.Unavailable), path);
    t.same({ status: r.status, retryAfter: r.retryAfter, wire: r.body.status }, { status: 503, retryAfter: String(RETRY_AFTER_SECONDS), wire: -2 }, path);
  }
});

t.test("a fault of ours: 500, status -1, no Retry-After", async (t) => {
  const r = await answer(new ConnectError("internal error", Code.Internal));
  t.same({ status: r.status, retryAfter: r.retryAfter, wire: r.body.status }, { status: 500, retryAfter: undefined, wire: -1 });
});
