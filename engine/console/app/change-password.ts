/**
 * An operator changes their own password, signed in and knowing the current
 * one. The current password is judged as a sign-in's is, against the same
 * count: an attempt is taken before it is checked and given back when it was
 * right, so a session in the wrong hands tries passwords no faster than the
 * sign-in page allows, and a locked account judges none. A wrong one that
 * spends the last attempt locks the account for 30 minutes, as at sign-in;
 * sessions go on, as they do when sign-in locks. The new password follows
 * enrolment's rules and must differ from the current one. It is written only
 * over the password that was checked, for an account still active, from a
 * session still live: a reset, a disable or another change meanwhile wins.
 * The operator's other sessions and pending sign-ins end with the change;
 * this one goes on. Every attempt is audited, by its reason, never a
 * password, in the transaction of what it changed.
 */
import { CONSOLE_RULES, ConsoleRefusal } from "../domain/console-rules.ts";
import { describeViolations, domainError, type DomainError } from "../../shared/errors.ts";
import { hashPassword, passwordFault, UNCHANGED_PASSWORD, verifyPassword } from "../domain/operator-credentials.ts";
import type { BackofficeDeps, ConsoleCaller } from "../ports/ports.ts";
import type { Tx } from "../ports/transactions.ts";
import { authenticate } from "./console-session.ts";

const ACTION = "operator.password";
const LOCK_MINUTES = CONSOLE_RULES.lockMs / 60_000;

export async function changePassword(
  deps: BackofficeDeps,
  caller: ConsoleCaller,
  current: string,
  next: string,
): Promise<{ ok: true; endedSessions: number } | { ok: false; error: DomainError }> {
  const who = await authenticate(deps, caller);
  const login = who.scope.login;
  const checked = who.operator.passwordHash ?? "";
  const now = deps.now();
  const audit = (outcome: "success" | "failure", detail: string, tx?: Tx) =>
    deps.audit.append({ actor: login, action: ACTION, outcome, target: `operator:${login}`, clientAddress: caller.clientAddress, detail }, tx);
  const invalid = (field: string, description: string, rule?: string) => {
    const violations = [{ field, description, ...(rule ? { rule } : {}) }];
    return { ok: false as const, error: domainError("INVALID_FIELDS", describeViolations(violations), violations) };
  };
  const locked = {
    ok: false as const,
    error: domainError("INVALID_STATE", `the account is locked for ${LOCK_MINUTES} minutes after too many wrong passwords; its password cannot be checked now`),
  };
  /** A wrong current password, or none judged: counted, locking at the last attempt, audited in the same transaction. */
  const spent = (detail: string) =>
    deps.operators.transaction(async (tx) => {
      const lock = await deps.operators.lockWhenSpent(login, CONSOLE_RULES.maxFailedAttempts, new Date(now.getTime() + CONSOLE_RULES.lockMs), tx);
      await audit("failure", lock.locked ? `${detail}; locked for ${LOCK_MINUTES} minutes` : detail, tx);
      return lock.locked;
    });

  // Locked, or every attempt taken (failed, or being checked at this moment): no password is judged.
  if (!(await deps.operators.reserveAttempt(login, CONSOLE_RULES.maxFailedAttempts, now))) {
    await spent("account locked or every attempt taken");
    return locked;
  }
  if (!(await verifyPassword(checked, current.slice(0, 1024)))) {
    if (await spent("wrong current password")) return locked;
    return invalid("current_password", "is not the operator's current password");
  }
  await deps.operators.releaseAttempt(login);

  const fault = passwordFault(next, login) ?? ((await verifyPassword(checked, next)) ? UNCHANGED_PASSWORD : undefined);
  if (fault) {
    await audit("failure", `new password ${fault.description}`);
    return invalid("new_password", fault.description, fault.rule);
  }
  const hash = await hashPassword(next);
  const endedSessions = await deps.operators.transaction(async (tx) => {
    const ended = await deps.operators.changePassword({ login, from: checked, to: hash, session: who.tokenHash, now: deps.now() }, tx);
    if (ended === undefined) return undefined;
    await audit("success", ended ? `${ended} other session(s) or pending sign-in(s) ended` : "", tx);
    return ended;
  });
  // Reset, disabled, signed out or changed elsewhere while the new password was hashed.
  if (endedSessions === undefined) throw new ConsoleRefusal("SESSION_ENDED");
  return { ok: true, endedSessions };
}
