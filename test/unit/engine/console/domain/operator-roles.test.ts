/**
 * The roles table as data: each role holds every action of the one before it,
 * viewer only reads, and every (role, action) pair is enumerated.
 */
import t from "tap";
import { ACTIONS, actionsOf, allows, inScope, ROLES } from "../../../../../engine/console/domain/operator-roles.ts";

const EXPECTED: Record<string, readonly string[]> = {
  viewer: ["transaction.read", "payout.read", "merchant.read", "dashboard.read"],
  support: ["transaction.read", "payout.read", "merchant.read", "dashboard.read", "callback.redeliver", "transaction.check", "customer.note", "customer.block"],
  payouts: [
    "transaction.read",
    "payout.read",
    "merchant.read",
    "dashboard.read",
    "callback.redeliver",
    "transaction.check",
    "customer.note",
    "customer.block",
    "payout.decide",
    "customer.unblock",
    // Money moves from payouts up: payout holds, refunds and cancels of sales, the Virtual Terminal's MOTO sale
    // (support moves none).
    "payout.hold",
    "transaction.refund",
    "transaction.cancel",
    "transaction.moto",
  ],
  admin: ACTIONS,
};

t.test("every (role, action) pair", async (t) => {
  for (const role of ROLES) for (const action of ACTIONS) t.equal(allows(role, action), EXPECTED[role].includes(action), `${role} ${action}`);
});

t.test("each role holds the one before it; viewer only reads", async (t) => {
  for (let i = 1; i < ROLES.length; i++) for (const a of actionsOf(ROLES[i - 1])) t.ok(allows(ROLES[i], a), `${ROLES[i]} has ${a}`);
  t.ok(actionsOf("viewer").every((a) => a.endsWith(".read")));
});

t.test("scope: an empty list is every merchant", async (t) => {
  t.ok(inScope({ login: "a", role: "viewer", merchantIds: [] }, "m-any"));
  t.ok(inScope({ login: "a", role: "viewer", merchantIds: ["m-1"] }, "m-1"));
  t.notOk(inScope({ login: "a", role: "admin", merchantIds: ["m-1"] }, "m-2"));
});
