/**
 * Adyen's refusal reasons: every documented code classified, soft or hard, and
 * Adyen's test table (a holder name or RequestedTestAcquirerResponseCode per
 * answer, test/fixtures/adyen/test-cards.json) run through the transformers:
 * each answer Adyen's test platform gives classifies as the code table says.
 * The test cards themselves are real card numbers by Luhn.
 */
import { readFileSync } from "node:fs";
import t from "tap";
import { REFUSAL_REASONS, refusalByCode, refusalByReason } from "../../../../../../engine/payments/processors/adyen/codes.ts";
import { saleOutcome } from "../../../../../../engine/payments/processors/adyen/transformers.ts";
import { luhnValid } from "../../../../../../engine/shared/card.ts";

interface TestCards {
  sources: Record<string, string>;
  cards: { brand: string; number: string; expiry: string; cvc: string }[];
  holderNames: { requestedTestAcquirerResponseCode: number; holderName: string; refusalReason: string; resultCode: string }[];
}
const fixture: TestCards = JSON.parse(readFileSync(new URL("../../../../../fixtures/adyen/test-cards.json", import.meta.url), "utf8"));

/** The refusals another route may pass: the acquirer, the issuer's host or 3-D Secure failed, not the card. */
const SOFT = ["4", "9", "19", "21", "38", "39", "42"];

t.test("every documented code is classified, once", async (t) => {
  const codes = REFUSAL_REASONS.map((r) => r.code);
  t.equal(new Set(codes).size, codes.length, "no code twice");
  t.equal(new Set(REFUSAL_REASONS.map((r) => r.reason.toLowerCase())).size, codes.length, "no reason twice");
  for (const r of REFUSAL_REASONS) {
    t.ok(r.class === "soft" || r.class === "hard", `${r.code} ${r.reason}: ${r.class}`);
    t.equal(refusalByCode(r.code), r, `${r.code}: found by its code`);
    t.equal(refusalByReason(r.reason.toUpperCase()), r, `${r.reason}: found by its text, whatever the case`);
  }
  t.same(
    REFUSAL_REASONS.filter((r) => r.class === "soft").map((r) => r.code),
    SOFT,
    "the soft ones, and only they",
  );
  t.notOk(refusalByCode("0"), "0 comes with Authorised: not a refusal");
  t.notOk(refusalByCode("13"), "13 is Adyen's test code for Received, not a refusal");
});

t.test("every answer of Adyen's test table classifies as the code table says", async (t) => {
  t.ok(fixture.holderNames.length >= 30, "the test table is read");
  for (const row of fixture.holderNames) {
    const code = String(row.requestedTestAcquirerResponseCode);
    const body = { resultCode: row.resultCode, pspReference: `TEST${code}`, refusalReasonCode: code, refusalReason: row.refusalReason || undefined };
    const out = saleOutcome("payments", { http: 200, body });
    const documented = refusalByCode(code);
    const what = `${row.holderName} -> ${row.resultCode} ${row.refusalReason || "-"}`;
    if (row.resultCode === "Authorised") t.equal(out.kind, "approved", what);
    else if (row.resultCode === "Received") t.equal(out.kind, "pending", what);
    else if (!documented) t.equal(out.kind, "unavailable", `${what}: an error Adyen does not document`);
    else {
      t.equal(documented.reason, row.refusalReason, `${what}: the test table and the refusal reasons agree`);
      t.match(out, { kind: documented.class === "soft" ? "retryable" : "declined", code: `adyen-${code}` }, `${what}: ${documented.class}`);
    }
  }
});

t.test("the test cards and their sources", async (t) => {
  for (const key of ["cards", "holderNames", "threeDSecure", "amounts"])
    t.match(fixture.sources[key], /adyen\.com/, `${key}: the source is Adyen's documentation`);
  t.ok(fixture.cards.some((c) => c.number === "4111111145551142"));
  t.ok(fixture.cards.some((c) => c.number === "2223000048410010"));
  for (const c of fixture.cards) {
    t.ok(luhnValid(c.number), `${c.brand} ${c.number}: passes the Luhn check`);
    t.match(c.expiry, /^\d{2}\/\d{4}$/, `${c.number}: an expiry Cashier takes (MM/YYYY)`);
  }
});
