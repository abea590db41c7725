/**
 * The merchant store reads time from the service's clock (engine/shared/runtime/clock.ts):
 * a rotated secret's overlap ends when that clock passes it, which a test
 * shows by moving the clock, over a real Postgres, without waiting.
 */
import t from "tap";
import { acceptedKeys } from "../../../../../engine/payments/app/authenticate.ts";
import { useEngineDeps } from "../../../../support/engine-deps.ts";

const engine = useEngineDeps(t);

t.test("the old secret is accepted for the overlap, then not; the view stops showing it", async (t) => {
  const { merchants, clock } = engine();
  await merchants.upsert({ merchantId: "m-rot", secret: "first-secret-0123456789", frontends: [{ name: "rot-usd", baseCurrency: "USD" }] });
  t.equal(await merchants.rotateSecret("m-rot", "second-secret-0123456789", 60), true);

  const during = await merchants.get("m-rot", { fresh: true });
  t.equal(acceptedKeys(during!, clock.now()).length, 2, "both secrets during the overlap");
  const expires = (await merchants.view("m-rot"))?.previousSecretExpiresAt;
  t.ok(expires && Math.abs(expires.getTime() - (clock.now().getTime() + 60_000)) < 5000, `it ends 60 s from the clock's now (${expires?.toISOString()})`);

  clock.advance(61_000);
  const after = await merchants.get("m-rot", { fresh: true });
  t.equal(acceptedKeys(after!, clock.now()).length, 1, "only the new secret once the clock is past the overlap");
  t.equal((await merchants.view("m-rot"))?.previousSecretExpiresAt, null, "the operator's view no longer shows an old secret");
});
