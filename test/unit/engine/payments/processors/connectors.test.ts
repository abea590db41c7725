/**
 * A connector is its folder and one line of the connectors list (CONTRACT 11,
 * issue 30 point 1): no file of engine/ or edge/ outside a connector's own
 * folder and engine/payments/processors/connectors.ts imports a connector's
 * folder, and no core file's code holds a connector's name as a string. Read
 * from the tree's imports and string literals (comments stripped), so a new
 * connector that needs a core file changed fails here.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import t from "tap";
import { CONNECTOR_NAMES, CONNECTORS, connectorNamed, DEFAULT_PROCESSORS } from "../../../../../engine/payments/processors/connectors.ts";

const repo = resolve(new URL("../../../../..", import.meta.url).pathname);
const PROCESSORS = "engine/payments/processors";

/** The connector folders: each a folder under processors/ holding an index.ts (the acquirer simulator is a program, not one). */
const FOLDERS = readdirSync(join(repo, PROCESSORS)).filter(
  (d) =>
    d !== "acquirer-sim" && statSync(join(repo, PROCESSORS, d)).isDirectory() && statSync(join(repo, PROCESSORS, d, "index.ts"), { throwIfNoEntry: false }),
);

/** Core files that may hold a connector's name, each with why. */
const JUSTIFIED: Record<string, string> = {
  "engine/store/migrations/001-initial.ts": "a committed migration: the column default of its day, never edited",
  "engine/store/entities/merchant.entity.ts": "mirrors migration 001's column default; the store always writes processors (DEFAULT_PROCESSORS)",
  "engine/shared/config/acquirer-sim-keys.ts":
    "the acquirer simulator program's own keys (which acquirers it plays), read by its settings and the engine's config",
};

function walk(dir: string): string[] {
  return readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((e) => {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === "node_modules" ? [] : walk(p);
    return e.name.endsWith(".ts") ? [p] : [];
  });
}

/** Files that may name or import a connector: its own folder, the list, and the acquirer simulator (which speaks their dialects). */
const own = (file: string) =>
  file === `${PROCESSORS}/connectors.ts` || file.startsWith(`${PROCESSORS}/acquirer-sim/`) || FOLDERS.some((f) => file.startsWith(`${PROCESSORS}/${f}/`));

const FILES = [...walk("engine"), ...walk("edge")];

/** Code without its comments (block, line), keeping string literals. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
}

t.test("the list: every connector once, each a module with a name, capabilities and credentials", async (t) => {
  t.same(CONNECTOR_NAMES, ["sim-a", "sim-b", "checkout", "adyen"]);
  t.equal(new Set(CONNECTOR_NAMES).size, CONNECTORS.length, "names are unique");
  for (const c of CONNECTORS) {
    t.ok(c.capabilities.length > 0 && c.credentials.length > 0, `${c.name} declares capabilities and credentials`);
    t.equal(connectorNamed(c.name), c);
  }
  t.equal(connectorNamed("sim-z"), undefined);
  t.ok(
    DEFAULT_PROCESSORS.every((n) => connectorNamed(n)),
    "the default cascade names registered connectors",
  );
  t.same([...FOLDERS].sort(), ["adyen", "checkout", "sim"], "each connector folder is found");
});

t.test("no file outside a connector's folder and the list imports a connector's folder", async (t) => {
  const offenders: string[] = [];
  for (const file of FILES) {
    if (own(file)) continue;
    const text = readFileSync(join(repo, file), "utf8");
    for (const m of text.matchAll(/(?:from|import)\s*\(?\s*["']([^"']+)["']/g)) {
      if (!m[1].startsWith(".")) continue;
      const target = relative(repo, resolve(repo, dirname(file), m[1]));
      if (FOLDERS.some((f) => target.startsWith(`${PROCESSORS}/${f}/`))) offenders.push(`${file} -> ${target}`);
    }
  }
  t.same(offenders, [], "only connectors.ts imports the connectors");
});

t.test("no core file's code holds a connector's name, but for the justified data", async (t) => {
  const names = CONNECTOR_NAMES.map((n) => n.replace(/[-]/g, "\\-")).join("|");
  const literal = new RegExp(`["'\`](${names})["'\`]`);
  const found = FILES.filter((f) => !own(f) && literal.test(code(readFileSync(join(repo, f), "utf8"))));
  t.same(found.filter((f) => !JUSTIFIED[f]).sort(), [], "no core file names a connector");
  for (const f of Object.keys(JUSTIFIED)) t.ok(FILES.includes(f), `${f} still exists (drop it from JUSTIFIED when it is gone)`);
});
