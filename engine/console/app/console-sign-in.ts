/**
 * Sign-in: the password, then a second factor (TOTP code, recovery code or
 * passkey). One answer for every refusal of the first step (unknown login,
 * wrong password, disabled, enrolling or locked account), and the same work
 * for an unknown login (a decoy hash is verified). Each failure of either
 * step counts; the 10th locks the account for 30 minutes. A password attempt
 * is counted before the password is checked and given back when it was right,
 * so simultaneous attempts cannot outrun the count. Every attempt is audited.
 */
import { CONSOLE_RULES, ConsoleRefusal, type ConsoleReason } from "../domain/console-rules.ts";
import { EVERY_CONTROL_CHARACTER } from "../../shared/control-characters.ts";
import { decoyHash, newToken, normaliseRecoveryCode, tokenHash, totpStep, verifyPassword } from "../domain/operator-credentials.ts";
import { open } from "../../security/sealed-box.ts";
import type { BackofficeDeps, ConsoleCaller } from "../ports/ports.ts";
import { startSession, type StartedSession } from "./console-session.ts";
import { totpAad } from "./enrolment.ts";
import { authenticationOptions, verifyPasskey } from "./passkeys.ts";

/** A login as typed, fit for the audit log: short, no control characters. */
const typed = (login: string) => login.replace(EVERY_CONTROL_CHARACTER, "?").slice(0, 64);

export interface PendingSignIn {
  token: string;
  expiresAt: Date;
  passkeyOptions: string;
}

export async function signIn(deps: BackofficeDeps, caller: ConsoleCaller, login: string, password: string): Promise<PendingSignIn> {
  const now = deps.now();
  const op = LOGIN_LIKE.test(login) ? await deps.operators.get(login) : undefined;
  // One of the account's attempts is taken before its password is checked (and given back if it was right):
  // a burst of simultaneous sign-ins checks at most the limit's worth, and a locked account's password is
  // never judged, so the burst cannot tell a right one.
  // Asked for every login-like name, known or not, so that the answer takes the same database round trip either way.
  const taken = LOGIN_LIKE.test(login) && (await deps.operators.reserveAttempt(login, CONSOLE_RULES.maxFailedAttempts, now));
  const reserved = op?.state === "active" && taken;
  // The same work whatever the outcome; the result counts only with an attempt taken.
  const checked = await verifyPassword(op?.passwordHash ?? (await decoyHash()), password.slice(0, 1024));
  const passwordOk = reserved && checked;
  const refuse = async (detail: string, count: boolean) => {
    await deps.operators.transaction(async (tx) => {
      const lock =
        count && op
          ? await deps.operators.lockWhenSpent(op.login, CONSOLE_RULES.maxFailedAttempts, new Date(now.getTime() + CONSOLE_RULES.lockMs), tx)
          : undefined;
      await deps.audit.append(
        {
          actor: op?.login ?? typed(login),
          action: "sign_in",
          outcome: "failure",
          clientAddress: caller.clientAddress,
          detail: lock?.locked ? `${detail}; locked for 30 minutes` : detail,
        },
        tx,
      );
    });
    throw new ConsoleRefusal("SIGN_IN_REFUSED");
  };
  if (!op) return refuse("unknown login", false);
  if (op.state !== "active") return refuse(`account ${op.state}`, false);
  // Not locked but every attempt taken (a burst, or attempts an engine never finished): locked from now.
  if (!reserved) return refuse(op.lockedUntil && op.lockedUntil > now ? "account locked" : "every attempt taken", true);
  if (!passwordOk) return refuse("wrong password", true);
  await deps.operators.releaseAttempt(op.login);
  const token = newToken();
  const expiresAt = new Date(now.getTime() + CONSOLE_RULES.pendingMs);
  const passkey = await authenticationOptions(deps, op.login, caller.origin);
  await deps.operators.transaction(async (tx) => {
    await deps.operators.createSession(
      {
        tokenHash: tokenHash(deps.keys.tokenHash, token),
        login: op.login,
        kind: "pending",
        expiresAt,
        now,
        clientAddress: caller.clientAddress,
        challenge: passkey?.challenge,
      },
      tx,
    );
    await deps.audit.append({ actor: op.login, action: "sign_in.password", outcome: "success", clientAddress: caller.clientAddress }, tx);
  });
  return { token, expiresAt, passkeyOptions: passkey?.json ?? "" };
}

const LOGIN_LIKE = /^[a-z0-9][a-z0-9._-]{2,63}$/;

export type SecondFactor = { kind: "totp"; code: string } | { kind: "recovery"; code: string } | { kind: "passkey"; responseJson: string };

export async function completeSignIn(deps: BackofficeDeps, caller: ConsoleCaller, pendingToken: string, factor: SecondFactor): Promise<StartedSession> {
  const now = deps.now();
  const hash = pendingToken ? tokenHash(deps.keys.tokenHash, pendingToken) : "";
  const outcome = await deps.operators.transaction(async (tx): Promise<{ refusal: ConsoleReason } | { session: StartedSession }> => {
    const pending = hash ? await deps.operators.session(hash, tx, true) : undefined;
    if (pending?.kind !== "pending" || pending.endedAt || pending.expiresAt <= now) return { refusal: "SIGN_IN_EXPIRED" };
    const op = await deps.operators.get(pending.login, tx, true);
    if (op?.state !== "active" || (op.lockedUntil && op.lockedUntil > now)) {
      await deps.operators.endSession(hash, now, tx);
      await deps.audit.append(
        { actor: pending.login, action: "sign_in", outcome: "failure", clientAddress: caller.clientAddress, detail: "account locked or not active" },
        tx,
      );
      return { refusal: "SIGN_IN_REFUSED" };
    }
    let ok = false;
    if (factor.kind === "totp" && op.totpSealed) {
      const step = totpStep(open(deps.keys.encryption, op.totpSealed, totpAad(op.login)), op.login, factor.code.trim(), now);
      ok = step !== undefined && (await deps.operators.useTotpStep(op.login, step, tx));
    } else if (factor.kind === "recovery") {
      ok = await deps.operators.useRecoveryCode(op.login, tokenHash(deps.keys.tokenHash, normaliseRecoveryCode(factor.code)), tx);
    } else if (factor.kind === "passkey") {
      ok = await verifyPasskey(deps, op.login, caller.origin, pending.challenge, factor.responseJson, tx);
    }
    if (!ok) {
      const lock = await deps.operators.recordFailure(op.login, CONSOLE_RULES.maxFailedAttempts, new Date(now.getTime() + CONSOLE_RULES.lockMs), tx);
      if (lock.locked) await deps.operators.endSession(hash, now, tx);
      await deps.audit.append(
        {
          actor: op.login,
          action: "sign_in",
          outcome: "failure",
          clientAddress: caller.clientAddress,
          detail: `wrong ${factor.kind} factor${lock.locked ? "; locked for 30 minutes" : ""}`,
        },
        tx,
      );
      return { refusal: lock.locked ? ("SIGN_IN_REFUSED" as const) : ("SECOND_FACTOR_REFUSED" as const) };
    }
    await deps.operators.endSession(hash, now, tx);
    await deps.operators.recordSignIn(op.login, now, tx);
    await deps.audit.append(
      { actor: op.login, action: "sign_in", outcome: "success", clientAddress: caller.clientAddress, detail: `second factor: ${factor.kind}` },
      tx,
    );
    return { session: await startSession(deps, op.login, caller, tx) };
  });
  if ("refusal" in outcome) throw new ConsoleRefusal(outcome.refusal);
  return outcome.session;
}
