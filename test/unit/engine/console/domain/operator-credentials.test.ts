/**
 * Operator credentials: the password rules (length, the shipped breached
 * list, the login), Argon2id hashing and verification, TOTP codes within one
 * step of drift, recovery codes and their normal form.
 */
import t from "tap";
import {
  hashPassword,
  newRecoveryCodes,
  newTotpSecret,
  normaliseRecoveryCode,
  passwordFault,
  totpCode,
  totpStep,
  verifyPassword,
} from "../../../../../engine/console/domain/operator-credentials.ts";

t.test("password rules", async (t) => {
  t.match(passwordFault("short", "jane"), { rule: "password.too_short", description: /at least 12/ });
  t.match(passwordFault("x".repeat(257), "jane"), { rule: "password.too_long", description: /at most 256/ });
  t.match(passwordFault("qwerty123456", "jane"), { rule: "password.breached", description: /breached or common/ });
  t.match(passwordFault("QWERTY123456", "jane"), { rule: "password.breached" }, "the list is checked without case");
  t.match(passwordFault("jane-the-operator", "jane"), { rule: "password.has_login", description: /login/ });
  t.match(passwordFault("aaaaaaaaaaaaaaab", "jane"), { rule: "password.few_characters", description: /different characters/ });
  for (const easy of ["qwertyuiopasdfgh", "iloveyou12345", "Password1234!"])
    t.match(
      passwordFault(easy, "jane"),
      { rule: "password.guessable", description: /too easy to guess/ },
      `${easy}: a keyboard run or a common word with digits`,
    );
  t.equal(passwordFault("correct horse battery staple", "jane"), undefined);
  t.equal(passwordFault("my cat likes tuna at noon", "jane"), undefined, "a few unrelated words");
});

t.test("Argon2id hashes verify only the right password", async (t) => {
  const h = await hashPassword("correct horse battery staple");
  t.match(h, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  t.ok(await verifyPassword(h, "correct horse battery staple"));
  t.notOk(await verifyPassword(h, "correct horse battery stapler"));
  t.notOk(await verifyPassword("not a hash", "anything"));
});

t.test("TOTP: the current code and one step either side; others refused", async (t) => {
  const secret = newTotpSecret();
  const at = new Date(Date.UTC(2026, 5, 1, 12, 0, 15));
  const step = Math.floor(at.getTime() / 30_000);
  t.equal(totpStep(secret, "jane", totpCode(secret, "jane", at), at), step);
  t.equal(totpStep(secret, "jane", totpCode(secret, "jane", new Date(at.getTime() - 30_000)), at), step - 1);
  t.equal(totpStep(secret, "jane", totpCode(secret, "jane", new Date(at.getTime() + 30_000)), at), step + 1);
  t.equal(totpStep(secret, "jane", totpCode(secret, "jane", new Date(at.getTime() - 90_000)), at), undefined);
  t.equal(totpStep(secret, "jane", "12345", at), undefined, "not six digits");
});

t.test("recovery codes: ten, distinct, compared without case or dashes", async (t) => {
  const codes = newRecoveryCodes();
  t.equal(codes.length, 10);
  t.equal(new Set(codes).size, 10);
  for (const c of codes) t.match(c, /^[a-z2-9]{5}-[a-z2-9]{5}$/);
  t.equal(normaliseRecoveryCode(" AbCdE-fGhJk "), "abcdefghjk");
});
