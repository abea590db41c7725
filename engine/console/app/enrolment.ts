/**
 * Enrolment through the one-time link: the password (12+ characters, not
 * breached, Argon2id), then a TOTP secret (sealed under the master key like
 * merchant secrets) confirmed by a code, then ten recovery codes shown once
 * and stored as keyed hashes. Confirming ends the link and signs the operator in.
 *
 * The link is bound to the browser that sets the password: the console sends
 * a random key it keeps in that browser's cookie, the engine keeps its keyed
 * hash, and the TOTP secret and the session go only to a request with the
 * same key. Another browser holding the link sees that the enrolment goes on
 * elsewhere, and gets neither.
 */
import { ConsoleRefusal } from "../domain/console-rules.ts";
import { timingSafeEqual } from "node:crypto";
import { describeViolations, domainError, type DomainError } from "../../shared/errors.ts";
import {
  hashPassword,
  newRecoveryCodes,
  newTotpSecret,
  normaliseRecoveryCode,
  passwordFault,
  tokenHash,
  totpStep,
  totpUri,
} from "../domain/operator-credentials.ts";
import { open, seal } from "../../security/sealed-box.ts";
import type { OperatorRecord } from "../ports/operators.ts";
import type { BackofficeDeps, ConsoleCaller } from "../ports/ports.ts";
import { startSession, type StartedSession } from "./console-session.ts";

export const totpAad = (login: string) => `operator-totp:${login}`;

export interface TotpSetup {
  uri: string;
  secret: string;
}

export interface EnrolmentView {
  operator: OperatorRecord;
  step: "password" | "totp";
  totp?: TotpSetup;
  /** At the TOTP step, asked from another browser than the one that set the password: no secret is shown. */
  otherBrowser?: boolean;
}

/** A browser's enrolment key as the console sends it: a random URL-safe value of its cookie. */
const BROWSER_KEY = /^[A-Za-z0-9_-]{16,256}$/;

const browserHash = (deps: BackofficeDeps, key: string) => tokenHash(deps.keys.tokenHash, `enrol-browser:${key}`);

/** Whether `key` is the one that set the operator's enrolment password (an enrolment from before the binding has none: no browser is). */
function sameBrowser(deps: BackofficeDeps, op: OperatorRecord, key: string): boolean {
  if (!op.enrolBrowserHash || !BROWSER_KEY.test(key)) return false;
  const a = Buffer.from(browserHash(deps, key));
  const b = Buffer.from(op.enrolBrowserHash);
  return a.length === b.length && timingSafeEqual(a, b);
}

async function enrolling(deps: BackofficeDeps, token: string): Promise<OperatorRecord> {
  const op = token ? await deps.operators.byEnrolment(tokenHash(deps.keys.tokenHash, token), deps.now()) : undefined;
  if (!op) throw new ConsoleRefusal("ENROLMENT_INVALID");
  return op;
}

/** An enrolment step refused, in the audit log under the operator it enrols. */
function refusedStep(deps: BackofficeDeps, caller: ConsoleCaller, login: string, action: string, detail: string) {
  return deps.audit.append({ actor: login, action, outcome: "failure", target: `operator:${login}`, clientAddress: caller.clientAddress, detail });
}

function setupOf(deps: BackofficeDeps, op: OperatorRecord): TotpSetup | undefined {
  if (!op.totpSealed) return undefined;
  const secret = open(deps.keys.encryption, op.totpSealed, totpAad(op.login));
  return { uri: totpUri(secret, op.login), secret };
}

export async function getEnrolment(deps: BackofficeDeps, token: string, browserKey: string): Promise<EnrolmentView> {
  const op = await enrolling(deps, token);
  if (!op.totpSealed) return { operator: op, step: "password" };
  if (!sameBrowser(deps, op, browserKey)) return { operator: op, step: "totp", otherBrowser: true };
  return { operator: op, step: "totp", totp: setupOf(deps, op) };
}

export async function setEnrolmentPassword(
  deps: BackofficeDeps,
  caller: ConsoleCaller,
  token: string,
  password: string,
  browserKey: string,
): Promise<{ ok: true; totp: TotpSetup } | { ok: false; error: DomainError }> {
  if (!BROWSER_KEY.test(browserKey)) {
    const violations = [{ field: "browser_key", description: "must be 16 to 256 URL-safe characters: the browser's enrolment key" }];
    return { ok: false, error: domainError("INVALID_FIELDS", describeViolations(violations), violations) };
  }
  const op = await enrolling(deps, token);
  const fault = passwordFault(password, op.login);
  if (fault) {
    // Audited like a wrong TOTP code: the link holder's attempts are the operator's to review.
    await refusedStep(deps, caller, op.login, "enrolment.password", fault.description);
    const violations = [{ field: "password", description: fault.description, rule: fault.rule }];
    return { ok: false, error: domainError("INVALID_FIELDS", describeViolations(violations), violations) };
  }
  if (op.totpSealed) return { ok: false, error: domainError("INVALID_STATE", "the password is set: enter the authenticator app's code") };
  const hash = await hashPassword(password);
  const secret = newTotpSecret();
  // Once per enrolment, also when two forms arrive together: the second would replace the first's password and secret.
  const set = await deps.operators.transaction(async (tx) => {
    const link = tokenHash(deps.keys.tokenHash, token);
    const sealed = seal(deps.keys.encryption, secret, totpAad(op.login));
    if (!(await deps.operators.setEnrolmentSecrets(op.login, link, hash, sealed, browserHash(deps, browserKey), deps.now(), tx))) return false;
    await deps.audit.append(
      { actor: op.login, action: "enrolment.password", outcome: "success", target: `operator:${op.login}`, clientAddress: caller.clientAddress },
      tx,
    );
    return true;
  });
  if (!set) return { ok: false, error: domainError("INVALID_STATE", "the password is set: enter the authenticator app's code") };
  return { ok: true, totp: { uri: totpUri(secret, op.login), secret } };
}

export async function confirmEnrolmentTotp(
  deps: BackofficeDeps,
  caller: ConsoleCaller,
  token: string,
  code: string,
  browserKey: string,
): Promise<{ ok: true; recoveryCodes: string[]; session: StartedSession } | { ok: false; error: DomainError }> {
  const op = await enrolling(deps, token);
  const setup = setupOf(deps, op);
  if (!setup) return { ok: false, error: domainError("INVALID_STATE", "set the password first") };
  if (!sameBrowser(deps, op, browserKey)) {
    // The code is not judged: whoever holds the link elsewhere learns nothing, and the attempt is on record.
    await refusedStep(deps, caller, op.login, "enrolment.totp", "from another browser than the one that set the password");
    throw new ConsoleRefusal("ENROLMENT_OTHER_BROWSER");
  }
  const now = deps.now();
  const step = totpStep(setup.secret, op.login, code.trim(), now);
  if (step === undefined) {
    await refusedStep(deps, caller, op.login, "enrolment.totp", "wrong code");
    const violations = [{ field: "code", description: "is not the current code of the authenticator app; check the phone's time and try the next code" }];
    return { ok: false, error: domainError("INVALID_FIELDS", describeViolations(violations), violations) };
  }
  const codes = newRecoveryCodes();
  // One code ends the enrolment once: of simultaneous requests with it, one activates and starts a session.
  const session = await deps.operators.transaction(async (tx) => {
    const activated = await deps.operators.activate(
      op.login,
      op.totpSealed ?? "",
      codes.map((c) => tokenHash(deps.keys.tokenHash, normaliseRecoveryCode(c))),
      step,
      now,
      tx,
    );
    if (!activated) throw new ConsoleRefusal("ENROLMENT_INVALID");
    await deps.audit.append(
      { actor: op.login, action: "enrolment.complete", outcome: "success", target: `operator:${op.login}`, clientAddress: caller.clientAddress },
      tx,
    );
    return startSession(deps, op.login, caller, tx);
  });
  return { ok: true, recoveryCodes: codes, session };
}
