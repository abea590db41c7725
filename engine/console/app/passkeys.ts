/**
 * Passkeys (WebAuthn) as a second factor, through @simplewebauthn/server:
 * the engine makes the options and verifies the browser's answers; the
 * relying party is the console's origin as the console reports it. A
 * challenge is kept with the session (registration) or the pending sign-in
 * (authentication) and used once.
 */
import type { AuthenticationResponseJSON, RegistrationResponseJSON, VerifiedRegistrationResponse } from "@simplewebauthn/server";
import { canonicalJson } from "../domain/audit-chain.ts";
import { describeViolations, domainError, type DomainError } from "../../shared/errors.ts";
import type { PasskeyRecord } from "../ports/passkeys.ts";
import type { Tx } from "../ports/transactions.ts";
import type { BackofficeDeps, ConsoleCaller } from "../ports/ports.ts";
import { authenticate } from "./console-session.ts";

export const RP_NAME = "Cashier Backoffice";

/** The library, loaded at the first ceremony: about 0.13 s of CPU that an engine's start need not spend. */
let webauthn: Promise<typeof import("@simplewebauthn/server")> | undefined;
const lib = () => {
  webauthn ??= import("@simplewebauthn/server");
  return webauthn;
};

/** The relying party of an origin: its host name, and the origin itself. */
export function relyingParty(origin: string): { rpID: string; origin: string } | undefined {
  try {
    const u = new URL(origin);
    if ((u.protocol !== "https:" && u.protocol !== "http:") || u.origin !== origin.replace(/\/$/, "")) return undefined;
    return { rpID: u.hostname, origin: u.origin };
  } catch {
    return undefined;
  }
}

const invalid = (field: string, description: string): { ok: false; error: DomainError } => ({
  ok: false,
  error: domainError("INVALID_FIELDS", describeViolations([{ field, description }]), [{ field, description }]),
});

export async function startPasskeyRegistration(
  deps: BackofficeDeps,
  caller: ConsoleCaller,
): Promise<{ ok: true; options: string } | { ok: false; error: DomainError }> {
  const who = await authenticate(deps, caller);
  const rp = relyingParty(caller.origin);
  if (!rp) return invalid("context.origin", "must be the console's origin, scheme://host[:port]");
  const existing = await deps.operators.passkeys(who.scope.login);
  const options = await (await lib()).generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.rpID,
    userName: who.scope.login,
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports as never })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
  await deps.operators.setChallenge(who.tokenHash, options.challenge);
  return { ok: true, options: JSON.stringify(options) };
}

export async function finishPasskeyRegistration(
  deps: BackofficeDeps,
  caller: ConsoleCaller,
  responseJson: string,
  name: string,
): Promise<{ ok: true; passkey: PasskeyRecord } | { ok: false; error: DomainError }> {
  const who = await authenticate(deps, caller);
  const rp = relyingParty(caller.origin);
  if (!rp) return invalid("context.origin", "must be the console's origin, scheme://host[:port]");
  const label = name.trim() || "Passkey";
  if ([...label].length > 64) return invalid("name", "must be at most 64 characters");
  const session = await deps.operators.session(who.tokenHash);
  if (!session?.challenge) return invalid("response_json", "no registration was started in this session");
  let response: RegistrationResponseJSON;
  try {
    response = JSON.parse(responseJson) as RegistrationResponseJSON;
  } catch {
    return invalid("response_json", "is not JSON");
  }
  await deps.operators.setChallenge(who.tokenHash, null);
  const { verifyRegistrationResponse } = await lib();
  let verified: VerifiedRegistrationResponse;
  try {
    verified = await verifyRegistrationResponse({ response, expectedChallenge: session.challenge, expectedOrigin: rp.origin, expectedRPID: rp.rpID });
  } catch (err) {
    return invalid("response_json", `was not accepted: ${err instanceof Error ? err.message.slice(0, 200) : "verification failed"}`);
  }
  if (!verified.verified || !verified.registrationInfo) return invalid("response_json", "was not accepted");
  const c = verified.registrationInfo.credential;
  const passkey: PasskeyRecord = {
    id: c.id,
    login: who.scope.login,
    publicKey: Buffer.from(c.publicKey).toString("base64url"),
    counter: c.counter,
    transports: c.transports ?? [],
    name: label,
    createdAt: deps.now(),
    lastUsedAt: null,
  };
  await deps.operators.transaction(async (tx) => {
    await deps.operators.addPasskey(passkey, tx);
    await deps.audit.append(
      {
        actor: who.scope.login,
        action: "passkey.add",
        outcome: "success",
        target: `operator:${who.scope.login}`,
        clientAddress: caller.clientAddress,
        afterJson: canonicalJson({ id: passkey.id, name: passkey.name }),
      },
      tx,
    );
  });
  return { ok: true, passkey };
}

export async function deletePasskey(deps: BackofficeDeps, caller: ConsoleCaller, id: string): Promise<boolean> {
  const who = await authenticate(deps, caller);
  return deps.operators.transaction(async (tx) => {
    const gone = await deps.operators.deletePasskey(who.scope.login, id, tx);
    if (gone)
      await deps.audit.append(
        {
          actor: who.scope.login,
          action: "passkey.delete",
          outcome: "success",
          target: `operator:${who.scope.login}`,
          clientAddress: caller.clientAddress,
          beforeJson: canonicalJson({ id }),
        },
        tx,
      );
    return gone;
  });
}

/** Request options for a sign-in, when the operator has passkeys. */
export async function authenticationOptions(deps: BackofficeDeps, login: string, origin: string): Promise<{ json: string; challenge: string } | undefined> {
  const rp = relyingParty(origin);
  const keys = await deps.operators.passkeys(login);
  if (!rp || keys.length === 0) return undefined;
  const options = await (await lib()).generateAuthenticationOptions({
    rpID: rp.rpID,
    allowCredentials: keys.map((k) => ({ id: k.id, transports: k.transports as never })),
    userVerification: "preferred",
  });
  return { json: JSON.stringify(options), challenge: options.challenge };
}

/** Verifies an assertion against the operator's passkeys and moves the counter; false when it fails. */
export async function verifyPasskey(
  deps: BackofficeDeps,
  login: string,
  origin: string,
  challenge: string | null,
  responseJson: string,
  tx: Tx,
): Promise<boolean> {
  const rp = relyingParty(origin);
  if (!rp || !challenge) return false;
  let response: AuthenticationResponseJSON;
  try {
    response = JSON.parse(responseJson) as AuthenticationResponseJSON;
  } catch {
    return false;
  }
  const key = (await deps.operators.passkeys(login, tx)).find((k) => k.id === response.id);
  if (!key) return false;
  const { verifyAuthenticationResponse } = await lib();
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      credential: { id: key.id, publicKey: new Uint8Array(Buffer.from(key.publicKey, "base64url")), counter: key.counter, transports: key.transports as never },
    });
    if (!result.verified) return false;
    await deps.operators.usePasskey(key.id, result.authenticationInfo.newCounter, deps.now(), tx);
    return true;
  } catch {
    return false;
  }
}
