/**
 * POST /api/session over real HTTP through the engine over gRPC on a real
 * Postgres: the hosted Cashier's session start as a platform sees it, signed
 * and refused exactly as Process (CONTRACT 2, 3 and 9).
 */
import t from "tap";
import { useService } from "../support/service.ts";
import { OTHER_SECRET } from "../support/merchants.ts";
import { replySigned } from "../support/wire.ts";
import { postSession, sessionBody, signSession, withdrawalBody } from "../support/cashier-session.ts";

const service = useService(t, { CASHIER_SESSION_TTL_SECONDS: "600" });
const url = () => service().edgeUrl;

t.test("a deposit session start answers a signed autologin address, auth_token and expiry", async (t) => {
  const before = Math.floor(Date.now() / 1000);
  const r = await postSession(url(), sessionBody());
  t.equal(r.http, 200, r.text);
  t.equal(r.body.status, 0);
  t.same(Object.keys(r.body), ["status", "description", "redirect_url", "auth_token", "expires_at", "version", "signature"]);
  t.match(r.body.redirect_url, new RegExp(`^${url()}/cashier/autologin/[A-Za-z0-9_-]{43}$`));
  t.ok(r.body.auth_token.length > 0 && r.body.auth_token.length <= 75, "auth_token at most 75 characters");
  t.ok(r.body.expires_at >= before + 600 && r.body.expires_at <= before + 602, "expires after CASHIER_SESSION_TTL_SECONDS");
  t.equal(r.body.version, "1.0");
  t.ok(replySigned(r.body), "signed with the merchant's secret");
});
