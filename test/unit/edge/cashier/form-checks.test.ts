/**
 * A form's every mistake in one round: the amount outside the limits the page shows (a withdrawal's balance among
 * them) and an expiry whose month has ended are found beside the shape mistakes; an ambiguous amount's message says
 * how to write it in the page's language.
 */
import t from "tap";
import { create } from "@bufbuild/protobuf";
import { CashierFrontendSchema, CashierSessionSchema } from "../../../../gen/cashier/engine/v1/cashier_service_pb.js";
import { expiryPast, outOfBounds, unreadAmountMessage } from "../../../../edge/cashier/form-checks.ts";
import { translator } from "../../../../edge/pages/kit/i18n.ts";

const session = (balance?: bigint) =>
  create(CashierSessionSchema, {
    currency: "EUR",
    balance: balance === undefined ? undefined : { amountMinor: balance, currency: "EUR" },
    frontendSettings: create(CashierFrontendSchema, {
      depositMinMinor: 500n,
      depositMaxMinor: 500000n,
      withdrawalMinMinor: 1000n,
      withdrawalMaxMinor: 500000n,
    }),
  });

t.test("amounts outside the shown limits", async (t) => {
  t.equal(outOfBounds(session(), "deposit", 499n), true);
  t.equal(outOfBounds(session(), "deposit", 500n), false);
  t.equal(outOfBounds(session(), "deposit", 500001n), true);
  t.equal(outOfBounds(session(2000n), "withdrawal", 2001n), true, "above the balance");
  t.equal(outOfBounds(session(2000n), "withdrawal", 2000n), false);
  t.equal(outOfBounds(session(), "withdrawal", 999n), true);
});

t.test("an expiry is past once its month has ended (UTC)", async (t) => {
  const now = new Date("2026-11-30T23:59:00Z");
  t.equal(expiryPast("11/2026", now), false, "this month still counts");
  t.equal(expiryPast("10/2026", now), true);
  t.equal(expiryPast("01/2027", now), false);
});

t.test("an ambiguous amount is told how to write it, in the page's language", async (t) => {
  t.equal(
    unreadAmountMessage(translator("de"), session(), "deposit", { ok: false, reason: "ambiguous" }),
    "Dieser Betrag lässt sich auf zwei Arten lesen. Schreiben Sie ihn ohne Tausendertrennzeichen, mit „,“ vor den Nachkommastellen, etwa 1234,50",
  );
  t.match(unreadAmountMessage(translator("en"), session(), "deposit", { ok: false, reason: "ambiguous" }), /“\.” before the decimals, as in 1234\.50$/);
  t.match(unreadAmountMessage(translator("en"), session(), "deposit", { ok: false, reason: "shape" }), /EUR/);
});
