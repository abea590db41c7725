/**
 * The money actions' reason: required, at most 255 characters, printable, and never a card number (refused naming
 * the field, not masked and kept), however it is typed.
 */
import t from "tap";
import { ACTION_REASON_MAX, actionReasonFaults } from "../../../../../engine/console/app/action-reason.ts";

t.test("a plain reason is kept", async (t) => {
  t.same(actionReasonFaults("customer asked on the phone, card ending 1111"), []);
  t.same(actionReasonFaults("x".repeat(ACTION_REASON_MAX)), [], "the longest");
});

t.test("each fault names the field reason", async (t) => {
  const cases: [string, RegExp][] = [
    ["", /is required/],
    ["   ", /is required/],
    ["x".repeat(ACTION_REASON_MAX + 1), /at most 255 characters/],
    ["line\nbreak", /control characters/],
    ["refund to 4111111111111111", /must not hold a card number/],
    ["refund to 4111 1111 1111 1111 please", /must not hold a card number/],
    ["amex 3782 822463 10005", /must not hold a card number/],
  ];
  for (const [reason, description] of cases) {
    const faults = actionReasonFaults(reason);
    t.equal(faults.length, 1, JSON.stringify(reason));
    t.equal(faults[0]?.field, "reason");
    t.match(faults[0]?.description, description, JSON.stringify(reason));
  }
});
