/**
 * Console sessions: a random token handed to the console once, stored as its
 * keyed hash, ending after 15 idle minutes (every call moves the end), 12 hours
 * after it began whatever its use, or at sign-out; and the check every console service call begins with: a live
 * session of an active operator whose role allows the call's action.
 */
import { CONSOLE_RULES, ConsoleRefusal } from "../domain/console-rules.ts";
import { allows, type Action, type OperatorScope } from "../domain/operator-roles.ts";
import { newToken, tokenHash } from "../domain/operator-credentials.ts";
import type { OperatorRecord } from "../ports/operators.ts";
import type { Tx } from "../ports/transactions.ts";
import type { BackofficeDeps, ConsoleCaller } from "../ports/ports.ts";

export interface StartedSession {
  token: string;
  idleEnd: Date;
  operator: OperatorRecord;
}

export async function startSession(deps: BackofficeDeps, login: string, caller: ConsoleCaller, tx: Tx): Promise<StartedSession> {
  const token = newToken();
  const now = deps.now();
  const idleEnd = new Date(now.getTime() + CONSOLE_RULES.idleMs);
  await deps.operators.createSession(
    { tokenHash: tokenHash(deps.keys.tokenHash, token), login, kind: "session", expiresAt: idleEnd, now, clientAddress: caller.clientAddress },
    tx,
  );
  await deps.audit.append({ actor: login, action: "session.start", outcome: "success", target: `operator:${login}`, clientAddress: caller.clientAddress }, tx);
  return { token, idleEnd, operator: (await deps.operators.get(login, tx)) as OperatorRecord };
}

/** A signed-in operator, as a call sees it. */
export interface SignedIn {
  scope: OperatorScope;
  operator: OperatorRecord;
  tokenHash: string;
  idleEnd: Date;
  caller: ConsoleCaller;
}

/**
 * The session of the call, moved on by it, or a refusal: SESSION_REQUIRED
 * for a token never issued, SESSION_ENDED for one that ended (idle, signed
 * out, operator disabled or reset).
 */
export async function authenticate(deps: BackofficeDeps, caller: ConsoleCaller): Promise<SignedIn> {
  if (!caller.sessionToken) throw new ConsoleRefusal("SESSION_REQUIRED");
  const hash = tokenHash(deps.keys.tokenHash, caller.sessionToken);
  const session = await deps.operators.session(hash);
  if (session?.kind !== "session") throw new ConsoleRefusal("SESSION_REQUIRED");
  const now = deps.now();
  const idleEnd = new Date(now.getTime() + CONSOLE_RULES.idleMs);
  const bornAfter = new Date(now.getTime() - CONSOLE_RULES.maxSessionMs);
  if (!(await deps.operators.touch(hash, now, idleEnd, bornAfter))) throw new ConsoleRefusal("SESSION_ENDED");
  const operator = await deps.operators.get(session.login);
  if (operator?.state !== "active") {
    await deps.operators.endSession(hash, now);
    throw new ConsoleRefusal("SESSION_ENDED");
  }
  return { scope: { login: operator.login, role: operator.role, merchantIds: operator.merchantIds }, operator, tokenHash: hash, idleEnd, caller };
}

/** authenticate(), then the roles table: a refused action is audited and PERMISSION_DENIED naming it. */
export async function authorize(deps: BackofficeDeps, caller: ConsoleCaller, action: Action, target = ""): Promise<SignedIn> {
  const who = await authenticate(deps, caller);
  if (!allows(who.scope.role, action)) {
    await deps.audit.append({
      actor: who.scope.login,
      action,
      outcome: "failure",
      target,
      clientAddress: caller.clientAddress,
      detail: `role ${who.scope.role} does not allow ${action}`,
    });
    throw new ConsoleRefusal("ACTION_DENIED", { action, message: `role ${who.scope.role} does not allow ${action}` });
  }
  return who;
}

/**
 * Runs a console change whose role check passed and whose own refusals are
 * not audited where they happen: one past the check (out of the operator's
 * reach, a scope it may not grant, fields at fault, a login taken) is then
 * audited as a failure of `action` on `target`, as a role refusal is, with no
 * merchant: a merchant out of the caller's scope must not have a row filed
 * under it that its own operators would read. The change's success row is
 * its own. The caller gets the refusal itself even when its row cannot be
 * written (then the database is most likely what failed, and nothing changed).
 */
export async function auditingRefusals<T>(
  deps: BackofficeDeps,
  who: SignedIn,
  caller: ConsoleCaller,
  at: { action: string; target: string },
  change: () => Promise<T>,
): Promise<T> {
  try {
    return await change();
  } catch (err) {
    await deps.audit
      .append({
        actor: who.scope.login,
        action: at.action,
        outcome: "failure",
        target: at.target,
        clientAddress: caller.clientAddress,
        detail: err instanceof Error ? err.message.slice(0, 500) : "refused",
      })
      .catch(() => {});
    throw err;
  }
}

export async function signOut(deps: BackofficeDeps, caller: ConsoleCaller): Promise<void> {
  const who = await authenticate(deps, caller);
  const now = deps.now();
  await deps.operators.transaction(async (tx) => {
    await deps.operators.endSession(who.tokenHash, now, tx);
    await deps.audit.append({ actor: who.scope.login, action: "sign_out", outcome: "success", clientAddress: caller.clientAddress }, tx);
  });
}
