/**
 * gen/ is committed protoc-gen-es output and never edited by hand, so CI must
 * notice when it no longer matches proto/: the protos pass `buf lint`, and a
 * fresh `buf generate` (buf.gen.yaml's own plugins and options, with only the
 * output redirected to a temporary directory) gives byte-identical files and
 * no file that gen/ lacks or holds in excess. Only local plugins are allowed,
 * so the check never reaches a remote registry.
 */
import t from "tap";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";
import { parse } from "yaml";

const root = resolve(import.meta.dirname, "../../..");
const buf = join(root, "node_modules", ".bin", "buf");

interface Plugin {
  local?: string | string[];
  remote?: string;
  protoc_builtin?: string;
  out: string;
  opt?: string | string[];
  [key: string]: unknown;
}

function run(args: string[]) {
  const r = spawnSync(buf, args, { cwd: root, encoding: "utf8", timeout: 60_000 });
  return { status: r.status, output: `${r.stdout ?? ""}${r.stderr ?? ""}${r.error ? String(r.error) : ""}` };
}

/** Every file under dir, as sorted paths relative to it. */
function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath, d.name)))
    .sort();
}

t.test("the protos pass buf lint", async (t) => {
  const r = run(["lint"]);
  t.equal(r.status, 0, `buf lint exits 0${r.output ? `:\n${r.output}` : ""}`);
});

t.test("gen/ is exactly what buf generate makes from proto/", async (t) => {
  const template = parse(readFileSync(join(root, "buf.gen.yaml"), "utf8")) as { plugins: Plugin[]; [key: string]: unknown };
  t.ok(Array.isArray(template.plugins) && template.plugins.length > 0, "buf.gen.yaml lists plugins");

  const outDirs = new Set<string>();
  for (const plugin of template.plugins) {
    t.ok(plugin.local !== undefined, `plugin writing to ${plugin.out} is local (no remote registry)`);
    t.notOk(isAbsolute(plugin.out) || plugin.out.split(/[\\/]/).includes(".."), `plugin out ${plugin.out} stays inside the repo`);
    outDirs.add(plugin.out.replace(/\/+$/, ""));
  }
  t.ok(outDirs.has("gen"), "buf.gen.yaml generates into gen/");

  const tmp = mkdtempSync(join(tmpdir(), "cashier-gen-drift-"));
  t.teardown(() => rmSync(tmp, { recursive: true, force: true }));
  const redirected = {
    ...template,
    plugins: template.plugins.map((plugin) => {
      const local = Array.isArray(plugin.local) ? [...plugin.local] : plugin.local;
      // The same Node that runs the tests runs the plugin, whatever `node` on PATH is.
      if (Array.isArray(local) && local[0] === "node") local[0] = process.execPath;
      return { ...plugin, local, out: join(tmp, plugin.out) };
    }),
  };
  const r = run(["generate", "--template", JSON.stringify(redirected)]);
  t.equal(r.status, 0, `buf generate exits 0${r.output ? `:\n${r.output}` : ""}`);
  if (r.status !== 0) return;

  for (const out of outDirs) {
    const fresh = listFiles(join(tmp, out));
    const committed = listFiles(join(root, out));
    t.ok(fresh.length > 0, `buf generate wrote files for ${out}/`);
    const missing = fresh.filter((f) => !committed.includes(f));
    const extra = committed.filter((f) => !fresh.includes(f));
    t.same(missing, [], `no generated file missing from ${out}/ (run npm run generate)`);
    t.same(extra, [], `no file in ${out}/ that buf generate does not make (stale or hand-written)`);
    const drifted = fresh.filter((f) => committed.includes(f) && !readFileSync(join(tmp, out, f)).equals(readFileSync(join(root, out, f))));
    t.same(drifted, [], `every file in ${out}/ is byte-identical to a fresh buf generate (run npm run generate)`);
  }
});
