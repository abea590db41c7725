/**
 * CSRF tokens bound to the page's session token (carried in the form, so a
 * framed page without cookies works): accepted with their own session and
 * key, refused with any other, when missing, altered or oversized.
 */
import t from "tap";
import { createCsrf, csrfKeyFrom } from "../../../../../edge/pages/kit/csrf.ts";

const key = csrfKeyFrom("edge-token-of-this-deployment");
const csrf = createCsrf(key);

t.test("a token is accepted with the session it was made for, by every edge sharing the key", async (t) => {
  const token = csrf.token("session-A");
  t.ok(csrf.verify("session-A", token));
  t.ok(createCsrf(csrfKeyFrom("edge-token-of-this-deployment")).verify("session-A", token), "another edge of the same deployment");
  t.not(csrf.token("session-A"), token, "each token is salted: two forms never share one");
});

t.test("refused: another session, another key, missing, altered, oversized", async (t) => {
  const token = csrf.token("session-A");
  t.notOk(csrf.verify("session-B", token), "another customer's session");
  t.notOk(createCsrf(csrfKeyFrom("another-deployment")).verify("session-A", token), "another key");
  for (const bad of [undefined, null, "", `${token}x`, token.replace(/.$/, (c) => (c === "A" ? "B" : "A")), "x".repeat(5000)]) {
    t.notOk(csrf.verify("session-A", bad), `token ${String(bad).slice(0, 20)}`);
  }
  t.notOk(csrf.verify("", token), "no session");
});

t.test("a key too short is refused at start; a token needs a session", async (t) => {
  t.throws(() => createCsrf(Buffer.alloc(16)), /at least 32 bytes/);
  t.throws(() => csrf.token(""), /session token/);
});
