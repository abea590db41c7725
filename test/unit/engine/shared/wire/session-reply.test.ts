/**
 * The session start's reply on a recorded example: its members in order, the
 * signature over their canonical string with the merchant's secret, and a
 * refusal's nulls and signable description.
 */
import t from "tap";
import { hmacKey } from "../../../../../engine/shared/hmac.ts";
import { sessionRefusalReply, sessionReply } from "../../../../../engine/shared/wire/session-reply.ts";
import { signatureOf } from "../../../../support/signer.ts";

const SECRET = "demo-secret-change-me";

t.test("a started session: members in order, signed like Process", async (t) => {
  const text = sessionReply(
    { redirectUrl: "http://127.0.0.1:8080/cashier/autologin/abc", authToken: "tok", expiresAt: 1795000900 },
    "Session started",
    hmacKey(SECRET),
  );
  const body = JSON.parse(text);
  t.same(Object.keys(body), ["status", "description", "redirect_url", "auth_token", "expires_at", "version", "signature"]);
  t.same([body.status, body.expires_at, body.version], [0, 1795000900, "1.0"]);
  t.equal(body.signature, signatureOf(body, SECRET), "the platform's own HMAC of the canonical string");
});

t.test("a refusal: nulls, a signable description, signed only with a key", async (t) => {
  const signed = JSON.parse(sessionRefusalReply(2, "amount: is above the balance & more=x", hmacKey(SECRET)));
  t.same([signed.redirect_url, signed.auth_token, signed.expires_at], [null, null, null]);
  t.notMatch(signed.description, /[&=]/, "no text can pose as other members of the canonical string");
  t.equal(signed.signature, signatureOf(signed, SECRET));
  t.equal(JSON.parse(sessionRefusalReply(-2, "retry later")).signature, null);
});
