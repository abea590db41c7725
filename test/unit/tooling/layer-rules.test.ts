/**
 * The layer rules (.dependency-cruiser.cjs) refuse what they are for: a small
 * tree written to a temp dir breaks each rule once, on purpose, and
 * dependency-cruiser, run with the repository's own rule file as CI runs it
 * (`npm run lint:layers`), must name every one of those imports and nothing
 * that keeps to the rules. The real tree's check is .ci/run's step.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { cruise, type ICruiseOptions, type IForbiddenRuleType } from "dependency-cruiser";
import t from "tap";

const repo = new URL("../../..", import.meta.url).pathname;

/** file -> the files it imports (repository-relative); every file exports one constant. */
const TREE: Record<string, string[]> = {
  "edge/face.ts": ["engine/payments/domain/rule.ts", "engine/shared/money.ts", "test/support/helper.ts"],
  "engine/main.ts": ["edge/face.ts", "engine/payments/store/order-store.ts"],
  "engine/shared/money.ts": ["engine/payments/domain/rule.ts"],
  "engine/store/orm.ts": ["engine/payments/domain/rule.ts"],
  "engine/store/entities/order.entity.ts": ["engine/payments/domain/rule.ts"],
  "engine/payments/index.ts": ["engine/payments/domain/rule.ts"],
  "engine/payments/domain/rule.ts": ["engine/payments/store/order-store.ts"],
  "engine/payments/app/process.ts": ["engine/payments/store/order-store.ts", "engine/cashier/index.ts"],
  "engine/payments/ports/orders.ts": ["engine/payments/store/order-store.ts"],
  "engine/payments/store/order-store.ts": ["engine/payments/app/process.ts"],
  "engine/payments/rpc/handler.ts": ["engine/payments/store/order-store.ts"],
  "engine/cashier/index.ts": ["engine/console/index.ts"],
  "engine/cashier/app/use.ts": ["engine/payments/app/process.ts", "engine/payments/index.ts"],
  "engine/console/index.ts": ["engine/retention/index.ts"],
  "engine/retention/index.ts": [],
  "test/support/helper.ts": [],
};

/** Each rule of the file, with an import of TREE that breaks it. */
const BROKEN: [rule: string, from: string, to: string][] = [
  ["edge-only-shared", "edge/face.ts", "engine/payments/domain/rule.ts"],
  ["engine-not-edge", "engine/main.ts", "edge/face.ts"],
  ["shared-stands-alone", "engine/shared/money.ts", "engine/payments/domain/rule.ts"],
  ["platform-knows-no-module", "engine/store/orm.ts", "engine/payments/domain/rule.ts"],
  ["platform-knows-no-module", "engine/store/entities/order.entity.ts", "engine/payments/domain/rule.ts"],
  ["module-public-entry", "engine/cashier/app/use.ts", "engine/payments/app/process.ts"],
  ["modules-one-way", "engine/payments/app/process.ts", "engine/cashier/index.ts"],
  ["cashier-not-console", "engine/cashier/index.ts", "engine/console/index.ts"],
  ["retention-beside", "engine/console/index.ts", "engine/retention/index.ts"],
  ["domain-is-pure", "engine/payments/domain/rule.ts", "engine/payments/store/order-store.ts"],
  ["app-no-store-no-transport", "engine/payments/app/process.ts", "engine/payments/store/order-store.ts"],
  ["ports-are-interfaces", "engine/payments/ports/orders.ts", "engine/payments/store/order-store.ts"],
  ["store-not-upward", "engine/payments/store/order-store.ts", "engine/payments/app/process.ts"],
  ["handlers-not-stores", "engine/payments/rpc/handler.ts", "engine/payments/store/order-store.ts"],
  ["no-circular", "engine/payments/app/process.ts", "engine/payments/store/order-store.ts"],
  ["not-to-test", "edge/face.ts", "test/support/helper.ts"],
];

/** Imports of TREE that keep to the rules: none of them may be reported. */
const KEPT: [from: string, to: string][] = [
  ["edge/face.ts", "engine/shared/money.ts"],
  ["engine/cashier/app/use.ts", "engine/payments/index.ts"],
  ["engine/main.ts", "engine/payments/store/order-store.ts"],
  ["engine/payments/index.ts", "engine/payments/domain/rule.ts"],
];

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** The rule file, loaded as CI's `npm run lint:layers` loads it. */
const config = createRequire(import.meta.url)(join(repo, ".dependency-cruiser.cjs")) as { forbidden: IForbiddenRuleType[]; options: ICruiseOptions };

async function cruiseTree(): Promise<Violation[]> {
  const dir = mkdtempSync(join(tmpdir(), "cashier-layers-"));
  try {
    for (const [file, imports] of Object.entries(TREE)) {
      mkdirSync(join(dir, dirname(file)), { recursive: true });
      const lines = imports.map((to, i) => {
        let spec = relative(dirname(file), to);
        if (!spec.startsWith(".")) spec = `./${spec}`;
        return `import { value as v${i} } from "${spec}";`;
      });
      const used = imports.map((_, i) => `v${i}`).join(", ");
      writeFileSync(join(dir, file), `${lines.join("\n")}\nexport const value = [${used}];\n`);
    }
    const { tsConfig: _ts, ...options } = config.options;
    const result = await cruise(["engine", "edge"], { ...options, baseDir: dir, validate: true, ruleSet: { forbidden: config.forbidden }, outputType: "json" });
    return (JSON.parse(result.output as string) as { summary: { violations: Violation[] } }).summary.violations;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const violations = await cruiseTree();
const found = (rule: string, from: string, to: string) => violations.some((v) => v.rule.name === rule && v.from === from && v.to === to);

t.test("every rule refuses its deliberate violation", async (t) => {
  for (const [rule, from, to] of BROKEN) t.ok(found(rule, from, to), `${rule}: ${from} -> ${to} is refused`);
});

t.test("every rule of the file is exercised here", async (t) => {
  t.same(config.forbidden.map((r) => r.name ?? "").sort(), [...new Set(BROKEN.map(([rule]) => rule))].sort());
});

t.test("imports that keep to the rules are not reported", async (t) => {
  for (const [from, to] of KEPT)
    t.notOk(
      violations.some((v) => v.from === from && v.to === to),
      `${from} -> ${to} passes`,
    );
});
