/**
 * The docs stay true to the repository: every link between them resolves (to a
 * file and, when it names one, a heading), every `npm run` they mention is a
 * script, the settings table of docs/operations.md lists exactly the variables
 * the code reads, they stand on their own (no document outside the repository),
 * and the README keeps the two commands. The catalogues are checked against the
 * code by test/unit/engine/catalogue.test.ts, the README's first request is run as
 * written by test/e2e/start-demo.test.ts.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import t from "tap";

const root = new URL("../../..", import.meta.url).pathname;
const read = (p: string) => readFileSync(join(root, p), "utf8");

function markdownFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(join(root, p)).isDirectory()) return markdownFiles(p);
    return name.endsWith(".md") ? [p] : [];
  });
}
const DOCS = ["README.md", ...markdownFiles("docs")];

/** GitHub's heading anchors: lower case, punctuation but '-' and '_' dropped, spaces to '-'. */
function anchorsOf(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of markdown.replace(/```[\s\S]*?```/g, "").split("\n")) {
    const m = /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const slug = m[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

t.test("every relative link in the README and docs/ reaches an existing file and heading", async (t) => {
  for (const doc of DOCS) {
    const text = read(doc).replace(/```[\s\S]*?```/g, "");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [file, anchor] = target.split("#");
      const path = file ? relative(root, join(root, dirname(doc), file)) : doc;
      t.ok(existsSync(join(root, path)), `${doc}: ${target} exists`);
      if (anchor && existsSync(join(root, path)) && statSync(join(root, path)).isFile()) {
        t.ok(anchorsOf(read(path)).has(anchor), `${doc}: ${target} names a heading of ${path}`);
      }
    }
  }
});

t.test("every `npm run` a doc mentions is a script of package.json", async (t) => {
  const scripts = Object.keys(JSON.parse(read("package.json")).scripts as Record<string, string>);
  for (const doc of DOCS) {
    for (const [, name] of read(doc).matchAll(/npm run ([a-z][a-z0-9:-]*)/g)) t.ok(scripts.includes(name), `${doc}: npm run ${name}`);
  }
});

function sourcesUnder(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((n) => {
    const p = join(dir, n);
    return statSync(join(root, p)).isDirectory() ? sourcesUnder(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** Environment variables the engine and the edge read: `env.X`, `env["X"]` and the names config.ts passes to its readers. */
function variablesTheCodeReads(): Set<string> {
  const names = new Set<string>();
  const files = ["engine", "edge"].flatMap(sourcesUnder);
  for (const f of files) {
    const src = read(f);
    for (const [, n] of src.matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)) names.add(n);
    for (const [, n] of src.matchAll(/\benv\["([A-Z][A-Z0-9_]+)"\]/g)) names.add(n);
    for (const [, n] of src.matchAll(/\(env, "([A-Z][A-Z0-9_]+)"/g)) names.add(n);
  }
  return names;
}

t.test("the settings table of docs/operations.md lists exactly the variables the code reads", async (t) => {
  const ops = read("docs/operations.md");
  const table = ops.slice(ops.indexOf("## Settings"), ops.indexOf("\n## ", ops.indexOf("## Settings") + 1));
  const documented = new Set([...table.matchAll(/^\| `([A-Z][A-Z0-9_]+)`(?: \/ `([A-Z][A-Z0-9_]+)`)?/gm)].flatMap((m) => [m[1], m[2]]).filter(Boolean));
  const read_ = variablesTheCodeReads();
  t.ok(read_.size > 15, `found the code's variables (${read_.size})`);
  for (const name of read_) t.ok(documented.has(name), `${name} is read by the code and documented`);
  for (const name of documented) t.ok(read_.has(name), `${name} is documented and read by the code`);
});

t.test("the docs stand on their own: no document outside the repository is named", async (t) => {
  for (const doc of DOCS) {
    const text = read(doc);
    t.notMatch(text, /\.\.\/shared\/|\bshared\/(CONTRACT|seed|STYLE)|\bCONTRACT\b|\b[Ss]eed\b/, `${doc} names no outside document`);
  }
});

t.test("the README gives the two commands and the license is Apache 2.0", async (t) => {
  const readme = read("README.md");
  t.match(readme, /^npm install && npm start\s/m, "install and start");
  t.match(readme, /^npm test\s/m, "test");
  t.match(read("LICENSE").trimStart(), /^Apache License\s+Version 2\.0/, "LICENSE is the Apache License 2.0");
  t.equal(JSON.parse(read("package.json")).license, "Apache-2.0", "as package.json says");
});
