// `tap build` when its last build is not for this .taprc and these tap packages: tap's test class is built
// for .taprc's plugin list (no ts-node, no module mocks), and a stale one would run the first files with the
// old hooks (docs/decisions/0008-fast-test-tier.md). The build costs about 10 s; the test tier scripts call
// this instead, so the inner loop (`npm run test:unit`) pays it only after an install or a .taprc change.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const repo = new URL("../..", import.meta.url).pathname;
const read = (p) => {
  try {
    return readFileSync(join(repo, p), "utf8");
  } catch {
    return "";
  }
};
const key = createHash("sha256")
  .update(read(".taprc"))
  .update(read("node_modules/tap/package.json"))
  .update(read("node_modules/@tapjs/test/package.json"))
  .digest("hex");
const stamp = join(repo, "node_modules/.cache/cashier/tap-build.stamp");
if (read("node_modules/.cache/cashier/tap-build.stamp") !== key) {
  execFileSync(join(repo, "node_modules/.bin/tap"), ["build"], { stdio: "inherit" });
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, key);
}
