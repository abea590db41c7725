import t from "tap";
import { offeredPresets } from "../../../../engine/shared/offered-presets.ts";

const presets = [500n, 1000n, 2500n, 10000n];

t.test("a preset outside the currency's deposit limits is not offered; a bound left out is no bound", async (t) => {
  const cases: [what: string, min: bigint | undefined, max: bigint | undefined, offered: bigint[]][] = [
    ["no limits", undefined, undefined, presets],
    ["a minimum only", 1000n, undefined, [1000n, 2500n, 10000n]],
    ["a maximum only", undefined, 2500n, [500n, 1000n, 2500n]],
    ["both, the bounds themselves offered", 1000n, 2500n, [1000n, 2500n]],
    ["a range between two presets", 600n, 900n, []],
    ["a zero minimum", 0n, undefined, presets],
  ];
  for (const [what, min, max, offered] of cases) t.same(offeredPresets(presets, min, max), offered, what);
});

t.test("the order of the presets is kept and the input is not changed", async (t) => {
  const given = [2500n, 500n, 1000n];
  t.same(offeredPresets(given, 600n, undefined), [2500n, 1000n]);
  t.same(given, [2500n, 500n, 1000n]);
});
