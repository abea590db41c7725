/**
 * The access line (edge/middleware/access-log.ts): one JSON line per request
 * with its fixed members (the client's address among them: the socket's
 * peer here, no proxy trusted), through the edge's own logger, written without
 * pino's redaction pass, while every other line of that logger keeps it.
 */
import type { AddressInfo } from "node:net";
import Koa from "koa";
import t from "tap";
import { createLogger } from "../../../../engine/shared/runtime/log.ts";
import { accessLog } from "../../../../edge/middleware/access-log.ts";

const lines: Record<string, unknown>[] = [];
const log = createLogger("info", { write: (s: string) => void lines.push(JSON.parse(s)) }).child({ process: "edge" });
const app = new Koa();
app.use(accessLog(log));
app.use((ctx) => {
  ctx.state.merchantId = "m-test";
  ctx.body = { status: 0, trace_id: 7 };
});
const server = app.listen(0, "127.0.0.1");
await new Promise((resolve) => server.once("listening", resolve));
t.teardown(() => server.close());
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

t.test("one line per request, its members fixed, the session token replaced", async (t) => {
  const token = "s".repeat(43);
  const res = await fetch(`${base}/cashier/s/${token}/deposit?card_number=4111111111111111`);
  await res.text();
  const line = lines.find((l) => l.msg === "request");
  t.match(line, {
    level: "info",
    process: "edge",
    method: "GET",
    path: "/cashier/s/[session]/deposit",
    http: 200,
    status: 0,
    trace_id: 7,
    merchant_id: "m-test",
    ip: "127.0.0.1",
  });
  t.type(line?.ms, "number");
  t.notOk(JSON.stringify(lines).includes(token), "no session token");
  t.notOk(JSON.stringify(lines).includes("4111111111111111"), "no query string, so no card number sent in one");
});

t.test("the edge's other lines still go through the redaction", async (t) => {
  log.info({ card_number: "4111111111111111", nested: { cvv: "123" } }, "other");
  const line = lines.find((l) => l.msg === "other");
  t.match(line, { card_number: "[redacted]", nested: { cvv: "[redacted]" } });
});
