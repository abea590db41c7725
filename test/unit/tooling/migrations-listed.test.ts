/**
 * Every committed migration is run, in the order of its number: the list in
 * engine/store/orm.ts names each file of engine/store/migrations once, sorted.
 * Several engineers adding migrations at once once left 026 listed before 024:
 * a database made from scratch and one migrated step by step would then have
 * run them in different orders.
 */
import { readdirSync, readFileSync } from "node:fs";
import t from "tap";

const files = readdirSync("engine/store/migrations")
  .filter((f) => /^\d{3}-.+\.ts$/.test(f))
  .map((f) => f.replace(/\.ts$/, ""))
  .sort();
const listed = [...readFileSync("engine/store/orm.ts", "utf8").matchAll(/\{ name: "(\d{3}-[^"]+)", class: /g)].map((m) => m[1]);

t.same(listed, files, "orm.ts lists each migration file once, in the order of its number");
t.equal(new Set(files.map((f) => f.slice(0, 3))).size, files.length, "no two migrations share a number");
