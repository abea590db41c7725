/**
 * The merchants file (and the admin RPCs, through the same parser) with the
 * names of Object.prototype's members: as member names they are ignored like
 * any unknown member, as values they are refused by the rule of the field.
 */
import t from "tap";
import { MerchantsFileError, parseMerchantEntry, parseMerchantsFile } from "../../../engine/app/merchant-spec.ts";

/** The field a refusal names, or "accepted". */
function refusedField(fn: () => unknown): string {
  try {
    fn();
    return "accepted";
  } catch (err) {
    return err instanceof MerchantsFileError ? err.field : String(err);
  }
}

const entry = (extra = "") => `{"merchant_id":"m-1","secret":"secret-0123456789abcdef","frontends":[{"name":"f","base_currency":"USD"}]${extra}}`;

t.test("a __proto__ or constructor member sets nothing (JSON.parse makes it an own member, not a prototype)", async (t) => {
  const [spec] = parseMerchantsFile(
    `{"merchants":[${entry(',"__proto__":{"payout_approval":"manual","processors":["evil"]},"constructor":{"prototype":{"site_id":-1}}')}]}`,
  );
  t.equal(spec.payoutApproval, "auto");
  t.same(spec.processors, ["sim-a", "sim-b"]);
  t.equal(spec.siteId, null);
});

t.test("a file whose merchants hide under __proto__ has no merchants list", async (t) => {
  t.throws(() => parseMerchantsFile(`{"__proto__":{"merchants":[${entry()}]}}`), new MerchantsFileError("", 'must be {"merchants": [...]}'));
});

t.test("prototype words as values are refused by each field's rule", async (t) => {
  const base = JSON.parse(entry()) as Record<string, unknown>;
  for (const word of ["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty"]) {
    t.equal(
      refusedField(() => parseMerchantEntry({ ...base, payout_approval: word }, "m")),
      "m.payout_approval",
      `payout_approval ${word}`,
    );
    t.equal(
      refusedField(() => parseMerchantEntry({ ...base, processors: [word] }, "m")),
      "m.processors",
      `processors ${word}`,
    );
    t.equal(
      refusedField(() => parseMerchantEntry({ ...base, frontends: [{ name: "f", base_currency: word }] }, "m")),
      "m.frontends[0].base_currency",
      `base_currency ${word}`,
    );
    t.equal(
      refusedField(() => parseMerchantEntry({ ...base, update_payout_statuses: word }, "m")),
      "m.update_payout_statuses",
      `update_payout_statuses ${word}`,
    );
  }
});
