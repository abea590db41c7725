/**
 * ConsoleAuthService's work-view choices over gRPC (docs/backoffice.md, Work
 * views): each operator's columns, page size and saved searches are its own
 * (there is no field naming another, and another's search id is NOT_FOUND,
 * as an unknown one, leaving it in place); bad values are INVALID_ARGUMENT
 * naming the field; no session, UNAUTHENTICATED; every change is audited.
 */
import t from "tap";
import { Code } from "@connectrpc/connect";
import { movableClock } from "../support/clock.ts";
import { backofficeClient, ctx, enrolOperator } from "../support/operators.ts";
import { useService } from "../support/service.ts";
import { refusal } from "../support/refusal.ts";

/** The shared refusal in one line, as these assertions read it: "accepted", or the code's name and the message. */
const said = async (p: Promise<unknown>) => {
  const r = await refusal(p);
  return r.code === undefined ? "accepted" : `${Code[r.code]}: ${r.message}`;
};

const clock = movableClock();
const svc = useService(t, {}, { now: clock.now });

t.test("each operator's choices are its own; another's search cannot be deleted", async (t) => {
  const bo = backofficeClient(svc().engineUrl);
  const ada = await enrolOperator(svc(), bo, clock, "pref-ada", "admin");
  const vic = await enrolOperator(svc(), bo, clock, "pref-vic", "viewer");
  const a = { context: ctx(ada.sessionToken) };
  const v = { context: ctx(vic.sessionToken) };

  const empty = await bo.getWorkPreferences(a);
  t.same([empty.preferences?.transactionColumns, empty.preferences?.pageSize, empty.savedSearches.length], [[], 0, 0], "the defaults at first");

  await bo.setWorkPreferences({ ...v, preferences: { transactionColumns: ["trace_id", "amount", "status"], pageSize: 100 } });
  const kept = await bo.getWorkPreferences(v);
  t.same([kept.preferences?.transactionColumns, kept.preferences?.pageSize], [["trace_id", "amount", "status"], 100], "the viewer's kept");
  t.same((await bo.getWorkPreferences(a)).preferences?.transactionColumns, [], "the admin's untouched");

  const saved = await bo.saveSearch({ ...v, name: "  Big payouts ", query: "type=payout&status=requested" });
  t.equal(saved.savedSearch?.name, "Big payouts", "the name trimmed");
  const again = await bo.saveSearch({ ...v, name: "Big payouts", query: "type=payout" });
  t.equal(again.savedSearch?.id, saved.savedSearch?.id, "the same name replaces, keeping the id");
  t.equal(again.savedSearch?.query, "type=payout");
  t.same((await bo.getWorkPreferences(a)).savedSearches, [], "not in the admin's list");

  const id = saved.savedSearch?.id ?? "";
  t.equal(await said(bo.deleteSavedSearch({ ...a, id })), "NotFound: no such saved search", "the admin cannot delete the viewer's search");
  t.equal((await bo.getWorkPreferences(v)).savedSearches.length, 1, "still there");
  t.equal(await said(bo.deleteSavedSearch({ ...v, id: "not-an-id\u0000" })), "NotFound: no such saved search", "an id of no shape: none");
  await bo.deleteSavedSearch({ ...v, id });
  t.same((await bo.getWorkPreferences(v)).savedSearches, [], "the viewer deleted its own");

  const audit = await svc().sql<{ actor: string; action: string; target: string }>(
    "select actor, action, target from audit_log where action in ('preferences.set', 'search.save', 'search.delete') order by id",
  );
  t.same(
    audit.map((r) => `${r.actor} ${r.action} ${r.target}`),
    [
      "pref-vic preferences.set operator:pref-vic",
      "pref-vic search.save operator:pref-vic",
      "pref-vic search.save operator:pref-vic",
      "pref-vic search.delete operator:pref-vic",
    ],
    "each change audited, the refused delete changing nothing",
  );
});

t.test("bad values are refused naming the field; no session is UNAUTHENTICATED", async (t) => {
  const bo = backofficeClient(svc().engineUrl);
  const op = await enrolOperator(svc(), bo, clock, "pref-sue", "support");
  const c = { context: ctx(op.sessionToken) };
  const cases: [string, () => Promise<unknown>, RegExp][] = [
    [
      "page size 5",
      () => bo.setWorkPreferences({ ...c, preferences: { pageSize: 5 } }),
      /^InvalidArgument: preferences\.page_size: must be 0 \(the default\) or from 10 to 200/,
    ],
    [
      "a column of no shape",
      () => bo.setWorkPreferences({ ...c, preferences: { transactionColumns: ["Amount; drop"] } }),
      /^InvalidArgument: preferences\.transaction_columns: /,
    ],
    ["a column twice", () => bo.setWorkPreferences({ ...c, preferences: { transactionColumns: ["amount", "amount"] } }), /names a column twice/],
    ["no name", () => bo.saveSearch({ ...c, name: " ", query: "pin=1" }), /^InvalidArgument: name: is required/],
    ["a name with a NUL", () => bo.saveSearch({ ...c, name: "a\u0000b", query: "pin=1" }), /^InvalidArgument: name: may not hold control characters/],
    ["a query with a space", () => bo.saveSearch({ ...c, name: "x", query: "pin=a b" }), /^InvalidArgument: query: must be a URL query string/],
    ["a long query", () => bo.saveSearch({ ...c, name: "x", query: "a".repeat(2001) }), /^InvalidArgument: query: is at most 2000 characters/],
    ["no session", () => bo.getWorkPreferences({ context: ctx("") }), /^Unauthenticated/],
  ];
  // Each call made in its turn: one refused before it is awaited would be an unhandled rejection.
  for (const [what, call, expected] of cases) t.match(await said(call()), expected, what);
  t.same((await bo.getWorkPreferences(c)).savedSearches, [], "nothing kept");
});
