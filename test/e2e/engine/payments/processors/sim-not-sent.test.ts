/**
 * A simulator that cannot be reached (its child down, nothing listening on its
 * port): a payment whose connection is refused was surely not sent, so the sim
 * connector answers `unavailable` and `notSent`, and the decision table sends a
 * sale on to the cascade's next account (declined_retry) or, at the last,
 * ends it declined E with PROCESSOR_UNAVAILABLE; never `pending` with nothing to
 * look up. A simulator that answers a payment too late is still `unknown`: it
 * may have taken it.
 */
import { createServer } from "node:net";
import t from "tap";
import { closedPort } from "../../../../support/closed-port.ts";
import { decide } from "../../../../../engine/payments/domain/outcome.ts";
import { stateKey } from "../../../../../engine/payments/domain/transitions.ts";
import type { ChargeRequest } from "../../../../../engine/payments/processors/processor.ts";
import { simConnector } from "../../../../../engine/payments/processors/sim/integration.ts";

let trace = 1;
const charge = (): ChargeRequest => ({
  traceId: trace++,
  amountMinor: 1050,
  currency: "USD",
  card: { number: "4111111111111111", cvv: "123", expiry: "12/2030" },
});

t.test("a refused connection: nothing sent, so the cascade goes on", async (t) => {
  const sim = simConnector({ name: "sim-a", url: `http://127.0.0.1:${await closedPort()}`, apiKey: "k", timeoutMs: 5000 });
  const sale = await sim.capabilities.sale!.authorize(charge());
  t.same(sale, { kind: "unavailable", message: "sim-a could not be reached; nothing was sent", notSent: true }, "a sale");
  t.equal(stateKey(decide("sale", sale, false).to!), "declined_retry", "not the last account: the next one takes the sale");
  const last = decide("sale", sale, true);
  t.same([stateKey(last.to!), last.depositState, last.errorCode], ["declined", "E", 9001], "the last: declined E, PROCESSOR_UNAVAILABLE");
  t.match(await sim.capabilities.payout!.payout(charge()), { kind: "unavailable", notSent: true }, "a payout");
  t.match(await sim.capabilities.refund!.refund({ ...charge(), saleTransactionId: "sim-a-1" }), { kind: "unavailable", notSent: true }, "a refund");
  t.match(await sim.capabilities.threeDSecure!.complete("sim-a-1", true), { kind: "unknown" }, "a challenge's completion is asked again later");
});

t.test("an answer that does not come in time is unknown: the simulator may have taken the payment", async (t) => {
  // Accepts the connection and reads the request, never answers.
  const silent = createServer((socket) => socket.resume());
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  t.teardown(() => new Promise<void>((resolve) => silent.close(() => resolve())));
  silent.on("connection", (socket) => t.teardown(() => socket.destroy()));
  const sim = simConnector({ name: "sim-a", url: `http://127.0.0.1:${(silent.address() as { port: number }).port}`, apiKey: "k", timeoutMs: 300 });
  const sale = await sim.capabilities.sale!.authorize(charge());
  t.equal(sale.kind, "unknown");
  t.equal(decide("sale", sale, true).to, undefined, "the attempt stays pending, and the follow-up looks it up");
});
