/** A table read by a caller's word answers only with its own entries. */
import t from "tap";
import { ownEntry } from "../../../../engine/shared/own-entry.ts";

const TABLE: Record<string, number> = { sale: 1, payout: 2 };

t.test("own entries answer", async (t) => {
  t.equal(ownEntry(TABLE, "sale"), 1);
  t.equal(ownEntry({ 3: "three" }, 3), "three");
});

t.test("Object.prototype's members are not entries", async (t) => {
  for (const word of ["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty", "__defineGetter__", "isPrototypeOf"]) {
    t.equal(ownEntry(TABLE, word), undefined, word);
  }
});

t.test("an own __proto__ entry (as JSON.parse makes one) is an entry", async (t) => {
  const table = JSON.parse('{"__proto__": 7}') as Record<string, number>;
  t.equal(ownEntry(table, "__proto__"), 7);
});
