/** The acquirer's return parameters as the edge passes them on: each name once, a bounded number, else refused. */
import t from "tap";
import { returnParams } from "../../../../edge/pages/challenge-return.ts";
import { acquirerTarget } from "../../../../edge/pages/challenge.ts";

t.test("an acquirer's return parameters pass as they came", async (t) => {
  t.same(returnParams(new URLSearchParams("redirectResult=X%2BY%3D")), { redirectResult: "X+Y=" });
  t.same(returnParams(new URLSearchParams("cko-session-id=sid_1")), { "cko-session-id": "sid_1" });
  t.same(returnParams(new URLSearchParams("")), {});
});

t.test("a repeated name or too many are not an acquirer's", async (t) => {
  t.equal(returnParams(new URLSearchParams("a=1&a=2")), undefined);
  t.equal(returnParams(new URLSearchParams(Array.from({ length: 21 }, (_, i) => `p${i}=1`).join("&"))), undefined);
  t.same(Object.entries(returnParams(new URLSearchParams("__proto__=1")) ?? {}), [["__proto__", "1"]]);
});

t.test("the customer is sent on only to an http(s) page", async (t) => {
  t.equal(acquirerTarget("https://acq.example/3ds/p1"), "https://acq.example/3ds/p1");
  t.equal(acquirerTarget("javascript:alert(1)"), undefined);
  t.equal(acquirerTarget(""), undefined);
  t.equal(acquirerTarget("not a url"), undefined);
});
