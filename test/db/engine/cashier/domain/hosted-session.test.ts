/**
 * The hosted Cashier's use cases in this process, over a real Postgres and no
 * socket (test/support/engine-deps.ts plus the session store): a session
 * start and its repeats (also concurrent), a withdrawal's order_id conflict,
 * the autologin's single use, a deposit through the same use case as Process
 * with its origin recorded, a kept card's sealed number bound to its
 * customer, and the closed loop. The same seen over HTTP and gRPC are in
 * test/e2e/session-start.test.ts and test/e2e/cashier-engine-flows.test.ts.
 */
import t from "tap";
import type { CashierDeps } from "../../../../../engine/cashier/ports/ports.ts";
import { redeemAutologin, openSession } from "../../../../../engine/cashier/app/cashier-session.ts";
import { startSession } from "../../../../../engine/cashier/app/start-session.ts";
import { submitDeposit } from "../../../../../engine/cashier/app/submit-deposit.ts";
import { withReturnUrl } from "../../../../../engine/payments/app/return-url.ts";
import { submitWithdrawal } from "../../../../../engine/cashier/app/submit-withdrawal.ts";
import { cancelWithdrawal, deleteSavedCard } from "../../../../../engine/cashier/app/cashier-actions.ts";
import type { SessionStartInput } from "../../../../../engine/cashier/domain/hosted-session.ts";
import { open } from "../../../../../engine/security/sealed-box.ts";
import { PgSessionStore } from "../../../../../engine/cashier/store/session-store.ts";
import { PgBrandLogoStore } from "../../../../../engine/payments/store/brand-logo-store.ts";
import { useEngineDeps } from "../../../../support/engine-deps.ts";

const engine = useEngineDeps(t);
let deps: CashierDeps;

t.before(async () => {
  await engine().merchants.upsert({
    merchantId: "m-hosted",
    secret: "hosted-secret-0123456789",
    processors: ["sim-a", "sim-b"],
    frontends: [
      {
        name: "hosted-usd",
        baseCurrency: "USD",
        settings: {
          allowedOrigins: [],
          depositPresets: [1000, 2500],
          limits: { USD: { depositMin: 500, depositMax: 50_000 } },
          defaultLocale: "en",
          saveCards: true,
          closedLoopWithdrawals: true,
          playerCancelWithdrawal: false,
        },
      },
    ],
  });
  deps = {
    ...engine().deps,
    sessions: new PgSessionStore(engine().orm),
    logos: new PgBrandLogoStore(engine().orm),
    sessionTtlSeconds: 600,
    cardTokenTtlSeconds: 900,
  };
});

let n = 0;
function start(over: Partial<SessionStartInput> = {}): SessionStartInput {
  n += 1;
  return {
    merchantId: "m-hosted",
    intent: "deposit",
    frontend: "hosted-usd",
    currency: "USD",
    amountMinor: undefined,
    balanceMinor: undefined,
    customer: {
      pin: "cust-h",
      email: "a@example.com",
      firstName: "Ada",
      lastName: "Lovelace",
      dob: "",
      phone: "",
      address: "",
      city: "",
      country: "GB",
      state: "",
      zip: "",
      requesterIp: "",
    },
    locale: "en-GB",
    returnUrl: "https://merchant.example/return",
    notificationUrl: "",
    orderId: "",
    scOrderId: `sc-${process.pid}-${n}`,
    udef1: "one",
    udef2: "",
    timestamp: undefined,
    version: "1.0",
    ...over,
  };
}

async function openedToken(over: Partial<SessionStartInput> = {}): Promise<string> {
  const s = await startSession(deps, start(over), undefined);
  if (!s.ok) throw new Error(s.error.message);
  const r = await redeemAutologin(deps, s.redirectUrl.split("/").pop()!);
  if (!r.ok) throw new Error(r.error.message);
  return r.sessionToken;
}

t.test("a start and its concurrent repeats make one session; other members another", async (t) => {
  const input = start();
  const results = await Promise.all(Array.from({ length: 6 }, () => startSession(deps, { ...input, timestamp: 1 }, undefined)));
  t.ok(results.every((r) => r.ok));
  const ok = results.filter((r) => r.ok);
  t.equal(new Set(ok.map((r) => r.ok && r.session.id)).size, 1, "one session");
  t.equal(ok.filter((r) => r.ok && !r.replayed).length, 1, "one made it, the others repeated it");
  t.equal(new Set(ok.map((r) => r.ok && `${r.redirectUrl} ${r.authToken}`)).size, 1, "the same tokens, derived again");
  const other = await startSession(deps, { ...input, udef2: "x" }, undefined);
  t.ok(other.ok && ok[0].ok && other.session.id !== ok[0].session.id);
});

t.test("the rules refuse by the domain's names, every one at once", async (t) => {
  const r = await startSession(deps, start({ intent: undefined, currency: "EUR", amountMinor: -5, locale: "???", udef1: "u".repeat(51) }), undefined);
  t.notOk(r.ok);
  if (!r.ok)
    t.same(
      r.error.violations.map((v) => v.field),
      ["intent", "currency", "amount", "locale", "udef1"],
    );
  const low = await startSession(deps, start({ amountMinor: 499 }), undefined);
  t.match(!low.ok && low.error.violations[0], { field: "amount", description: /below the frontend's deposit minimum \(5.00 USD\)/ });
});

t.test("a withdrawal's order_id: the same members repeat, others conflict", async (t) => {
  const w = start({ intent: "withdrawal", orderId: `wd-${process.pid}`, balanceMinor: 10_000 });
  const a = await startSession(deps, w, undefined);
  const b = await startSession(deps, w, undefined);
  t.ok(a.ok && b.ok && b.replayed && a.session.id === b.session.id);
  const c = await startSession(deps, { ...w, balanceMinor: 9000 }, undefined);
  t.equal(!c.ok && c.error.reason, "ORDER_CONFLICT");
});

t.test("the autologin is used once, also when two redeem at the same moment", async (t) => {
  const s = await startSession(deps, start(), undefined);
  if (!s.ok) throw new Error("start");
  const token = s.redirectUrl.split("/").pop()!;
  const both = await Promise.all([redeemAutologin(deps, token), redeemAutologin(deps, token)]);
  t.equal(both.filter((r) => r.ok).length, 1);
  const lost = both.find((r) => !r.ok);
  t.equal(lost && !lost.ok ? lost.error.reason : "", "AUTOLOGIN_UNUSABLE");
  const won = both.find((r) => r.ok);
  t.ok(won?.ok && (await openSession(deps, won.sessionToken)).ok, "the browser session opens the session");
  t.equal((await openSession(deps, "not-a-token")).ok, false);
});

t.test("a deposit goes through Process's use case as the customer's, in the session", async (t) => {
  const token = await openedToken();
  const r = await submitDeposit(deps, {
    sessionToken: token,
    amountMinor: 1500,
    currency: "USD",
    source: { kind: "new", number: "5555555555554444", cvv: "123", expiry: "12/2031", holder: "Ada L", save: true },
    requesterIp: "198.51.100.4",
    returnUrl: "/cashier/s/x/return",
    submissionKey: "a-form-key-of-22-chars",
  });
  t.ok(r.ok && r.attempt.status === "approved");
  if (!r.ok) return;
  t.same([r.attempt.createdBy, r.attempt.udef1, r.attempt.requesterIp], ["customer", "one", "198.51.100.4"]);
  // The way back to the session's page holds its token: kept sealed, opened for the challenge page only.
  t.match(r.attempt.returnUrl, /^sealed:v1\./, "the order's return_url is sealed");
  t.equal(withReturnUrl(deps, r.attempt).returnUrl, "http://127.0.0.1:1/cashier/s/x/return", "and opens to the session's page");
  const [card] = await engine().sql<{ card_sealed: string; card_fingerprint: string; pin: string }>(
    "select card_sealed, card_fingerprint, pin from saved_card where order_ref = ?",
    [r.attempt.orderRef],
  );
  t.equal(
    open(deps.keys.encryption, card.card_sealed, `saved-card:m-hosted:cust-h:${card.card_fingerprint}`),
    "5555555555554444",
    "sealed, bound to the customer's card",
  );
  t.throws(
    () => open(deps.keys.encryption, card.card_sealed, `saved-card:m-hosted:someone-else:${card.card_fingerprint}`),
    "another customer's binding does not open it",
  );

  const wToken = await openedToken({ intent: "withdrawal", orderId: `wd2-${process.pid}` });
  const stranger = await submitWithdrawal(deps, {
    sessionToken: wToken,
    amountMinor: 1000,
    currency: "USD",
    destination: { kind: "new", number: "4111111111111111", cvv: "", expiry: "12/2031", holder: "", save: false },
    requesterIp: "",
  });
  t.match(!stranger.ok && stranger.error.violations, [{ field: "new_card.card.number" }], "closed loop: a card never deposited from");
  const cards = await deps.sessions.savedCards("m-hosted", "cust-h");
  const paid = await submitWithdrawal(deps, {
    sessionToken: wToken,
    amountMinor: 1000,
    currency: "USD",
    destination: { kind: "saved", id: cards[0].id, cvv: "" },
    requesterIp: "",
  });
  t.ok(paid.ok && paid.attempt.type === "payout" && paid.attempt.createdBy === "customer");
  const cancel = await cancelWithdrawal(deps, wToken, paid.ok ? paid.attempt.traceId : 0);
  t.equal(!cancel.ok && cancel.error.reason, "NOT_ALLOWED_BY_FRONTEND");
  t.ok((await deleteSavedCard(deps, token, cards[0].id)).ok);
  t.same(await engine().sql("select id from saved_card where id = ?", [cards[0].id]), [], "deleted with its sealed number");
});
