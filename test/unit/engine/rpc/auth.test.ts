/**
 * The bearer check and its throttle (engine/rpc/auth.ts, auth-throttle.ts)
 * without a socket: each refusal is named and counted against the peer's
 * address (its port is no new guesser); past the limit that address is
 * refused RESOURCE_EXHAUSTED for every token it would refuse, while the right token still passes,
 * until the block ends; another address is not affected.
 */
import { Metadata, status } from "@grpc/grpc-js";
import t from "tap";
import { type AuthRefusal, tokenCheck } from "../../../../engine/rpc/auth.ts";
import { authThrottle } from "../../../../engine/rpc/auth-throttle.ts";

const TOKEN = "0123456789abcdef0123456789abcdef";

function bearer(value: string | undefined): Metadata {
  const m = new Metadata();
  if (value !== undefined) m.set("authorization", value);
  return m;
}

/** Lets the throttle's bookkeeping (a resolved promise) run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

t.test("each refusal is named and reported; the right token passes", async (t) => {
  const reported: AuthRefusal[] = [];
  const check = tokenCheck([TOKEN], { throttle: authThrottle(), onRefused: (r) => reported.push(r) });
  t.equal(check(bearer(`Bearer ${TOKEN}`), "127.0.0.1:5000"), undefined);
  t.equal(check(bearer(`bearer   ${TOKEN} `), "127.0.0.1:5000"), undefined, "the word in any case, spaces around");
  t.equal(check(bearer(undefined), "127.0.0.1:5000")?.code, status.UNAUTHENTICATED);
  t.equal(check(bearer(TOKEN), "127.0.0.1:5000")?.code, status.UNAUTHENTICATED);
  t.equal(check(bearer("Bearer nope"), "127.0.0.1:5000")?.message, "the bearer token is not valid");
  t.same(reported, ["missing", "malformed", "wrong"]);
});

t.test(
  "once the limit is reached an address's wrong tokens are refused RESOURCE_EXHAUSTED until its block ends; the right token and others pass",
  async (t) => {
    const reported: AuthRefusal[] = [];
    const check = tokenCheck([TOKEN], { throttle: authThrottle({ failures: 3, windowSeconds: 60, blockSeconds: 1 }), onRefused: (r) => reported.push(r) });
    for (let port = 1; port <= 3; port++) {
      t.equal(check(bearer("Bearer wrong"), `198.51.100.7:${port}`)?.code, status.UNAUTHENTICATED, `guess ${port}, from a new port`);
      await settle();
    }
    const blocked = check(bearer("Bearer another-guess"), "198.51.100.7:9");
    t.equal(blocked?.code, status.RESOURCE_EXHAUSTED, "a further guess is throttled");
    t.match(blocked?.message, /^too many refused tokens from this address; retry after [12] s$/);
    t.equal(check(bearer(""), "198.51.100.7:9")?.code, status.RESOURCE_EXHAUSTED, "so is a call with no token");
    t.equal(check(bearer(`Bearer ${TOKEN}`), "198.51.100.7:9"), undefined, "the right token from the same address passes: a guesser cannot lock the edge out");
    t.equal(check(bearer(`Bearer ${TOKEN}`), "[2001:db8::1]:9"), undefined, "another address is let in");
    t.same(reported, ["wrong", "wrong", "wrong", "throttled", "throttled"]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    t.equal(check(bearer("Bearer wrong"), "198.51.100.7:10")?.code, status.UNAUTHENTICATED, "after the block, a wrong token is refused as before");
  },
);

t.test("without a guard (a bare adapter in tests) nothing is throttled", async (t) => {
  const check = tokenCheck([TOKEN]);
  for (let i = 0; i < 50; i++) check(bearer("Bearer wrong"), "127.0.0.1:1");
  await settle();
  t.equal(check(bearer(`Bearer ${TOKEN}`), "127.0.0.1:1"), undefined);
});
