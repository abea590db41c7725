/**
 * A card token is used once (CONTRACT 12), over a real Postgres: two Process
 * calls with one token at the same moment, for two orders, make exactly one
 * order and refuse the other naming cardToken; copies of one request at the
 * same moment make one order and one processor call, with the CVV, each copy
 * answering that order or refused naming cardToken (a copy that comes after
 * the use and before the order never charges the card without its CVV); the
 * use erases the CVV in the same statement; and the retention sweep deletes a
 * token once expired.
 */
import { randomBytes } from "node:crypto";
import t from "tap";
import type { ProcessInput } from "../../../../../engine/shared/transaction.ts";
import { processTransaction } from "../../../../../engine/payments/app/process-transaction.ts";
import { cardTokenHash, sealTokenCard } from "../../../../../engine/payments/app/card-token-use.ts";
import { PgCardTokenStore } from "../../../../../engine/payments/store/card-token-store.ts";
import type { ProcessDeps } from "../../../../../engine/payments/ports/process-deps.ts";
import { purgeCardTokens } from "../../../../../engine/retention/store/card-token-purge.ts";
import { typedDb } from "../../../../../engine/store/typed-db.ts";
import { aProcessInput } from "../../../../support/builders.ts";
import { useEngineDeps } from "../../../../support/engine-deps.ts";

const engine = useEngineDeps(t);
let deps: ProcessDeps;
let store: PgCardTokenStore;

t.before(async () => {
  await engine().merchants.upsert({
    merchantId: "m-tok",
    secret: "token-secret-0123456789",
    processors: ["sim-a", "sim-b"],
    frontends: [{ name: "tok-usd", baseCurrency: "USD" }],
  });
  store = new PgCardTokenStore(engine().orm);
  deps = { ...engine().deps, cardTokens: store };
});

/** A token minted as the fields page mints it, for m-tok's customer `pin`, expiring in `ttlMs`. */
async function minted(pin = "cust-tok", ttlMs = 900_000): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const hash = cardTokenHash(deps.keys.tokenHash, token);
  await store.mint({
    tokenHash: hash,
    merchantId: "m-tok",
    frontend: "tok-usd",
    pin,
    cardMasked: "411111******1111",
    cardBrand: "VISA",
    cardExpiry: "12/2030",
    cardFingerprint: "fp",
    ...sealTokenCard(deps.keys.encryption, hash, { number: "4111111111111111", cvv: "123" }),
    holder: "Jane Doe",
    expiresAt: new Date(deps.now().getTime() + ttlMs),
  });
  return token;
}

let n = 0;
function sale(token: string, over: Partial<ProcessInput> = {}): ProcessInput {
  n += 1;
  const base = aProcessInput({ merchantId: "m-tok", frontend: "tok-usd", orderId: `tok-${process.pid}-${n}`, customer: { pin: "cust-tok" } });
  return { ...base, card: { number: "", cvv: "", expiry: "" }, cardToken: token, ...over };
}

t.test("two Process calls with one token at the same moment: exactly one order is made", async (t) => {
  const token = await minted();
  const results = await Promise.all([processTransaction(deps, sale(token), undefined), processTransaction(deps, sale(token), undefined)]);
  const won = results.filter((r) => r.ok);
  const lost = results.filter((r) => !r.ok);
  t.equal(won.length, 1, "one wins");
  t.equal(lost.length, 1, "one is refused");
  if (won[0]?.ok) t.equal(won[0].attempt.status, "approved");
  if (lost[0] && !lost[0].ok) {
    t.equal(lost[0].error.reason, "INVALID_FIELDS");
    t.same(
      lost[0].error.violations.map((v) => v.field),
      ["cardToken"],
    );
    t.match(lost[0].error.message, /used already/);
  }
  const orders = await engine().sql<{ n: number }>(
    "select count(*)::int as n from payment_order where merchant_id = 'm-tok' and card_masked = '411111******1111'",
  );
  t.equal(orders[0].n, 1, "one order holds the token's card");
  const rows = await engine().sql<{ cvv_sealed: string | null; used_order_id: string }>(
    "select cvv_sealed, used_order_id from card_token where token_hash = ?",
    [cardTokenHash(deps.keys.tokenHash, token)],
  );
  t.equal(rows[0].cvv_sealed, null, "the use erased the CVV");
  t.ok(rows[0].used_order_id.startsWith("tok-"));
});

/** The CVV of every sale the processors were asked to authorize: the real registry, each call seen on its way. */
const authorized: string[] = [];
function watchedDeps(): ProcessDeps {
  const real = deps.processors;
  const processors = new Proxy(real, {
    get(target, prop) {
      if (prop !== "capability") {
        const v = Reflect.get(target, prop, target);
        return typeof v === "function" ? v.bind(target) : v;
      }
      return (...args: Parameters<typeof real.capability>) => {
        const c = target.capability(...args);
        if (!c.ok || args[1] !== "sale") return c;
        const calls = c.calls as { authorize: (charge: { card: { cvv: string } }) => Promise<unknown> };
        return {
          ok: true,
          calls: { ...c.calls, authorize: (charge: { card: { cvv: string } }) => (authorized.push(charge.card.cvv), calls.authorize(charge)) },
        };
      };
    },
  });
  return { ...deps, processors };
}

t.test("copies of one request at the same moment: one order, one charge with the CVV; each copy answers it or names cardToken", async (t) => {
  const watched = watchedDeps();
  for (let round = 1; round <= 8; round++) {
    authorized.length = 0;
    const token = await minted();
    const request = sale(token);
    const results = await Promise.all([1, 2, 3].map(() => processTransaction(watched, request, undefined)));
    const answered = results.flatMap((r) => (r.ok ? [r] : []));
    const refused = results.flatMap((r) => (r.ok ? [] : [r.error]));
    t.same(authorized, ["123"], `round ${round}: exactly one processor call, with the token's CVV`);
    t.equal(new Set(answered.map((r) => r.attempt.traceId)).size, 1, `round ${round}: the answers name one transaction`);
    t.equal(answered.filter((r) => !r.replayed).length, 1, `round ${round}: one copy made it`);
    for (const e of refused) {
      t.same([e.reason, e.violations.map((v) => v.field)], ["INVALID_FIELDS", ["cardToken"]], `round ${round}: a refused copy names cardToken`);
      t.match(e.message, /other request/);
    }
    const orders = await engine().sql<{ n: number }>("select count(*)::int as n from payment_order where merchant_id = 'm-tok' and order_id = ?", [
      request.orderId,
    ]);
    t.equal(orders[0].n, 1, `round ${round}: one order`);
  }
});

t.test("a copy that comes after the token's use and before its order is refused naming cardToken, with no charge", async (t) => {
  // The window of the race, held open: the first request has used the token (its CVV erased) and not yet made its
  // order (it is slow, or its engine died there). Its copy finds the token used by its own order_id.
  const watched = watchedDeps();
  authorized.length = 0;
  const token = await minted();
  const request = sale(token);
  const use = { merchantId: "m-tok", frontend: "tok-usd", pin: "cust-tok", orderId: request.orderId };
  t.ok(await store.claim(cardTokenHash(deps.keys.tokenHash, token), use, deps.now()), "the first request's use");
  const copy = await processTransaction(watched, request, undefined);
  t.notOk(copy.ok, "the copy is refused");
  if (!copy.ok) {
    t.same(
      copy.error.violations.map((v) => v.field),
      ["cardToken"],
    );
    t.match(copy.error.message, /cardToken: is being used by this order_id's other request/);
  }
  t.same(authorized, [], "no processor was asked to charge the card without its CVV");
  const orders = await engine().sql<{ n: number }>("select count(*)::int as n from payment_order where order_id = ?", [request.orderId]);
  t.equal(orders[0].n, 0, "the copy made no order");
});

t.test("a token of another pin is refused and stays usable; an expired one is refused and swept", async (t) => {
  const token = await minted("cust-owner");
  const foreign = await processTransaction(deps, sale(token), undefined);
  t.notOk(foreign.ok);
  if (!foreign.ok) t.match(foreign.error.message, /cardToken: names no card token/);
  const own = await processTransaction(deps, sale(token, { customer: { ...sale(token).customer, pin: "cust-owner" } }), undefined);
  t.ok(own.ok, "its owner still pays with it");

  const short = await minted("cust-tok", 1000);
  engine().clock.advance(2000);
  const late = await processTransaction(deps, sale(short), undefined);
  t.notOk(late.ok);
  if (!late.ok) t.match(late.error.message, /cardToken: has expired/);
  const before = await engine().sql<{ n: number }>("select count(*)::int as n from card_token");
  const swept = await purgeCardTokens(typedDb(engine().orm.em.fork()), engine().clock.now(), 100);
  t.ok(swept >= 1, "the expired token is deleted");
  const after = await engine().sql<{ n: number }>("select count(*)::int as n from card_token where token_hash = ?", [
    cardTokenHash(deps.keys.tokenHash, short),
  ]);
  t.equal(after[0].n, 0, "the expired token's row, its sealed card with it, is gone");
  t.ok(before[0].n > swept, "unexpired tokens are kept");
});
