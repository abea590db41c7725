/**
 * A frontend's amounts between minor units and the wire unit, exactly: every exponent and wire unit (USD cents,
 * JPY and BHD whole units, KWD in hundredths), the amounts the wire unit cannot carry, and the merchants-file
 * parser's field names turned into SetFrontendAmounts' own.
 */
import t from "tap";
import { create } from "@bufbuild/protobuf";
import { SetFrontendAmountsRequestSchema } from "../../../../../gen/cashier/admin/v1/console_settings_service_pb.js";
import { minorToWire, requestField } from "../../../../../engine/console/rpc/frontend-amounts.ts";

t.test("minor units to the wire unit, or nothing when it cannot carry them", async (t) => {
  t.equal(minorToWire(1050n, "USD"), 1050n, "cents are minor units");
  t.equal(minorToWire(1000n, "JPY"), 1000n, "no decimals");
  t.equal(minorToWire(5000n, "BHD"), 5n, "BHD 5.000 is 5 whole dinars");
  t.equal(minorToWire(5500n, "BHD"), undefined, "BHD 5.500 is no whole dinar");
  t.equal(minorToWire(12_340n, "KWD"), 1234n, "KWD 12.340 in hundredths");
  t.equal(minorToWire(12_345n, "KWD"), undefined, "KWD 12.345 is no hundredth");
  t.equal(minorToWire(9_007_199_254_740_993_000n, "BHD"), 9_007_199_254_740_993n, "no float on the way");
  t.equal(minorToWire(100n, "XYZ"), undefined, "no such currency");
});

t.test("the parser's fields as the request's", async (t) => {
  const req = create(SetFrontendAmountsRequestSchema, { limits: [{ currency: "USD" }, { currency: "bhd" }] });
  for (const [from, to] of [
    ["frontend.base_currency", "base_currency"],
    ["frontend.currencies", "currencies"],
    ["frontend.deposit_presets", "deposit_presets_minor"],
    ["frontend.deposit_presets[3]", "deposit_presets_minor[3]"],
    ["frontend.limits.USD.deposit_max", "limits[0].deposit_max_minor"],
    ["frontend.limits.BHD.withdrawal_min", "limits[1].withdrawal_min_minor"],
    ["frontend.limits.BHD", "limits[1].currency"],
    ["frontend.limits.BHD.bogus", "limits[1]"],
    ["frontend.limits.EUR", "limits"],
  ])
    t.equal(requestField(from, req), to, from);
});
