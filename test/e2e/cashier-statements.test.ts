/**
 * What one deposit through the hosted Cashier's pages asks of Postgres,
 * counted, against the running service: each page's CashierService calls
 * (engine and edge in this process, real Postgres) run at most a fixed number
 * of SQL statements. Only the statements made for CashierService are counted
 * (the engine's workers poll on their own), told by the async call stack of
 * the pg call, which passes through engine/cashier/rpc/cashier-service.ts.
 */
import t from "tap";
import pg from "pg";
import { sessionBody } from "../support/cashier-session.ts";
import { useService } from "../support/service.ts";
import { sign } from "../support/wire.ts";

Error.stackTraceLimit = 60;
const counted = new Map<string, number>();
let step = "";

function fromCashierService(): boolean {
  const stack = new Error().stack ?? "";
  return stack.includes("/engine/cashier/rpc/cashier-service.ts");
}

/** Kysely's reads go through a pool's client; the hot path's prepared statements through Pool.query (whose client call is then not counted again). */
for (const proto of [pg.Client.prototype, pg.Pool.prototype] as unknown as { query: (...a: unknown[]) => unknown }[]) {
  const original = proto.query;
  const pool = proto === (pg.Pool.prototype as unknown);
  proto.query = function (this: unknown, ...args: unknown[]) {
    if (step && fromCashierService() && (pool || !(new Error().stack ?? "").includes("pg-pool"))) counted.set(step, (counted.get(step) ?? 0) + 1);
    return original.apply(this, args);
  };
}

const service = useService(t);

async function page(name: string, url: string, init: RequestInit = {}): Promise<Response> {
  step = name;
  try {
    const r = await fetch(url, { redirect: "manual", headers: { "accept-language": "en", ...init.headers }, ...init });
    await r.clone().text();
    return r;
  } finally {
    step = "";
  }
}

t.test("a deposit's pages run a bounded number of statements each", async (t) => {
  const base = service().edgeUrl;
  const start = sign(sessionBody({ pin: `statements-${process.pid}` }));
  const session = await page("session start", `${base}/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(start),
  });
  t.equal(session.status, 200);
  const autologin = new URL(((await session.json()) as { redirect_url: string }).redirect_url);
  const redeemed = await page("autologin", `${base}${autologin.pathname}`);
  t.equal(redeemed.status, 303);
  const pageUrl = new URL(redeemed.headers.get("location") ?? "", base).toString();
  const deposit = await page("deposit page", pageUrl);
  const html = await deposit.text();
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? "";
  const form = new URLSearchParams({
    session_token: field("session_token"),
    csrf_token: field("csrf_token"),
    submission_key: field("submission_key"),
    amount: "25",
    card_number: "4111111111111111",
    card_exp: "12/30",
    cvv: "123",
    holder: "Jane Doe",
  });
  const submitted = await page("submit", pageUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
  });
  t.equal(submitted.status, 303);
  const resultUrl = new URL(submitted.headers.get("location") ?? "", base).toString();
  t.match(resultUrl, /\/result\/\d+/);
  const result = await page("result page", resultUrl);
  t.match(await result.text(), "<h1>Payment approved</h1>");

  // Each bound is what the page needs: the session (or its start, or the redemption), its saved cards
  // (one statement that also erases the cards of deposits ended unapproved) and its transactions;
  // the submit adds SubmitDeposit's session lookup, its order and its outcome.
  const bounds: [string, number][] = [
    ["session start", 1],
    ["autologin", 3],
    ["deposit page", 3],
    ["submit", 6],
    ["result page", 3],
  ];
  for (const [name, bound] of bounds) {
    const n = counted.get(name) ?? 0;
    t.ok(n > 0 && n <= bound, `${name}: ${n} statements, at most ${bound}`);
  }
});
