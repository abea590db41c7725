/**
 * An operator changes their own password, signed in and knowing the current
 * one. The current password is judged like a sign-in's: an attempt is taken
 * before it is checked and given back when it was right, so a stolen session
 * cannot try passwords faster than the sign-in page allows, and the attempt
 * that locks the account also ends every session of it. The new password
 * follows enrolment's rules and must differ from the current one. The
 * operator's other sessions end with the change; this one goes on. Every
 * attempt is audited, by its reason, never a password.
 */
import { CONSOLE_RULES } from "../domain/console-rules.ts";
import { describeViolations, domainError, type DomainError } from "../domain/errors.ts";
import { hashPassword, passwordFault, verifyPassword } from "../security/operator-credentials.ts";
import type { BackofficeDeps, ConsoleCaller } from "./backoffice-deps.ts";
import { authenticate } from "./console-session.ts";

const ACTION = "operator.password";

export async function changePassword(
  deps: BackofficeDeps,
  caller: ConsoleCaller,
  current: string,
  next: string,
): Promise<{ ok: true; endedSessions: number } | { ok: false; error: DomainError }> {
  const who = await authenticate(deps, caller);
  const login = who.scope.login;
  const now = deps.now();
  const audit = (outcome: "success" | "failure", detail: string, tx?: Parameters<typeof deps.audit.append>[1]) =>
    deps.audit.append({ actor: login, action: ACTION, outcome, target: `operator:${login}`, clientAddress: caller.clientAddress, detail }, tx);
  const refused = async (field: string, description: string, detail: string) => {
    await audit("failure", detail);
    const violations = [{ field, description }];
    return { ok: false as const, error: domainError("INVALID_FIELDS", describeViolations(violations), violations) };
  };

  // Locked, or every attempt taken (by sign-ins or by changes at this moment): no password is judged.
  if (!(await deps.operators.reserveAttempt(login, CONSOLE_RULES.maxFailedAttempts, now))) {
    return refused("current_password", "cannot be checked now: too many wrong passwords were given; try again in 30 minutes", "account locked");
  }
  if (!(await verifyPassword(who.operator.passwordHash ?? "", current.slice(0, 1024)))) {
    const lockUntil = new Date(now.getTime() + CONSOLE_RULES.lockMs);
    const locked = await deps.operators.transaction(async (tx) => {
      const lock = await deps.operators.lockWhenSpent(login, CONSOLE_RULES.maxFailedAttempts, lockUntil, tx);
      if (lock.locked) await deps.operators.endSessions(login, now, tx);
      return lock.locked;
    });
    if (locked) {
      return refused(
        "current_password",
        "was wrong too many times: the account is locked for 30 minutes and signed out everywhere",
        "wrong current password; locked for 30 minutes, every session ended",
      );
    }
    return refused("current_password", "is not the operator's current password", "wrong current password");
  }
  await deps.operators.releaseAttempt(login);

  const fault = passwordFault(next, login);
  if (fault) return refused("new_password", fault, `new password ${fault}`);
  if (await verifyPassword(who.operator.passwordHash ?? "", next)) {
    return refused("new_password", "must differ from the current password", "new password is the current one");
  }
  const hash = await hashPassword(next);
  const endedSessions = await deps.operators.transaction(async (tx) => {
    const ended = await deps.operators.changePassword(login, hash, who.tokenHash, deps.now(), tx);
    await audit("success", ended ? `${ended} other session(s) ended` : "", tx);
    return ended;
  });
  return { ok: true, endedSessions };
}
