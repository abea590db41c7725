/**
 * Reading a table by a word someone else chose (a wire member's value, a
 * config value): a plain object also answers to the names of
 * Object.prototype's members, so `TYPES["constructor"]` is a function and
 * `TYPES["__proto__"]` an object where "not found" was meant. Only the
 * table's own entries answer here.
 */
export function ownEntry<V>(table: Readonly<Record<string, V>>, word: string | number): V | undefined {
  return Object.hasOwn(table, word) ? table[word] : undefined;
}
