/** The rules of an operator's work-view choices, tabled: what is kept, and what is refused naming its field. */
import t from "tap";
import { isSavedSearchId, preferenceFaults, savedSearchFaults } from "../../../../../engine/console/domain/work-preferences.ts";

const fields = (faults: { field: string }[]) => faults.map((f) => f.field);

t.test("columns and page size", async (t) => {
  const cases: [string[], number, string[]][] = [
    [[], 0, []],
    [["trace_id", "amount", "made_by"], 25, []],
    [[], 10, []],
    [[], 200, []],
    [[], 9, ["preferences.page_size"]],
    [[], 201, ["preferences.page_size"]],
    [[], -1, ["preferences.page_size"]],
    [["Amount"], 0, ["preferences.transaction_columns"]],
    [["a".repeat(33)], 0, ["preferences.transaction_columns"]],
    [["amount", "amount"], 0, ["preferences.transaction_columns"]],
    [Array.from({ length: 25 }, (_, i) => `c${i}`), 0, ["preferences.transaction_columns"]],
    [["x\u0000"], 5, ["preferences.transaction_columns", "preferences.page_size"]],
  ];
  for (const [columns, size, expected] of cases) t.same(fields(preferenceFaults(columns, size)), expected, `${JSON.stringify(columns).slice(0, 40)} ${size}`);
});

t.test("saved searches", async (t) => {
  const cases: [string, string, string[]][] = [
    ["Mine", "pin=cust-2&type=sale", []],
    ["  padded  ", "", []],
    ["Ünïcödé ✓", "email=a%40b.example", []],
    ["", "pin=1", ["name"]],
    ["   ", "pin=1", ["name"]],
    ["n".repeat(65), "pin=1", ["name"]],
    ["tab\there", "pin=1", ["name"]],
    ["x", "?pin=1", ["query"]],
    ["x", "pin=a b", ["query"]],
    ["x", "pin=1#top", ["query"]],
    ["x", "pin=é", ["query"]],
    ["x", "a".repeat(2001), ["query"]],
  ];
  for (const [name, query, expected] of cases)
    t.same(fields(savedSearchFaults(name, query)), expected, `${JSON.stringify(name).slice(0, 20)} ${query.slice(0, 20)}`);
  t.ok(isSavedSearchId("0d5f3c1e-6a4b-4c1d-9e2f-3a4b5c6d7e8f"));
  t.notOk(isSavedSearchId("0D5F3C1E-6A4B-4C1D-9E2F-3A4B5C6D7E8F x"));
  t.notOk(isSavedSearchId("1"));
});
