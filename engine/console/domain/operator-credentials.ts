/**
 * An operator's credentials (docs/backoffice-operations.md): passwords of 12
 * to 256 characters, refused when on the breached-password list shipped with
 * @zxcvbn-ts/language-common or when zxcvbn (@zxcvbn-ts/core) finds them easy
 * to guess (a keyboard run, a common phrase with digits: score under 3 of 4),
 * hashed with Argon2id (@node-rs/argon2); TOTP
 * (otpauth, RFC 6238: SHA-1, 6 digits, 30 s, one step of drift either way);
 * recovery codes and every token (enrolment, pending sign-in, session) kept
 * only as HMAC-SHA256 under the master key's token key.
 */
import { createHmac, randomBytes, type KeyObject } from "node:crypto";
import { type Algorithm, hash, verify } from "@node-rs/argon2";
import zxcvbn from "@zxcvbn-ts/core";
import { adjacencyGraphs, dictionary } from "@zxcvbn-ts/language-common";
import { Secret, TOTP } from "otpauth";

import { PASSWORD_MAX, PASSWORD_MIN } from "../../shared/password-limits.ts";

/** Argon2id (the library's const enum value 2); OWASP's Argon2id settings: 19 MiB, 2 passes, 1 lane. */
const ARGON2 = { algorithm: 2 as Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

// Made at the first password it judges, as the estimator below.
let breached: ReadonlySet<string> | undefined;
const breachedList = () => {
  const lists = dictionary as Record<string, string[] | undefined>;
  breached ??= new Set((lists["passwords-common"] ?? lists.passwords ?? []).map((p) => p.toLowerCase()));
  return breached;
};

/** zxcvbn's estimator with the common dictionaries and keyboard layouts; scores 0 to 4, 3 meaning "safely unguessable" online and slow offline. */
// Its first 64 characters are judged: past them a password is strong enough, and a 256-character one would hold
// the engine's event loop for a few hundred milliseconds.
// Built at the first password it judges (about 35 ms of CPU that an engine's start need not spend).
let strength: InstanceType<typeof zxcvbn.ZxcvbnFactory> | undefined;
const estimator = () => {
  strength ??= new zxcvbn.ZxcvbnFactory({ dictionary: { ...dictionary }, graphs: adjacencyGraphs, maxLength: 64 });
  return strength;
};
const MIN_SCORE = 3;

/** A refused password: the rule it breaks (errors.proto's FieldViolation.rule) and the sentence for a developer. */
export interface PasswordFault {
  rule: string;
  description: string;
}

const fault = (rule: string, description: string): PasswordFault => ({ rule: `password.${rule}`, description });

/** Why a password is refused, or undefined when it is acceptable. */
export function passwordFault(password: string, login: string): PasswordFault | undefined {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return fault("too_short", `must be at least ${PASSWORD_MIN} characters`);
  if (length > PASSWORD_MAX) return fault("too_long", `must be at most ${PASSWORD_MAX} characters`);
  const lower = password.toLowerCase();
  if (breachedList().has(lower)) return fault("breached", "is on the list of breached or common passwords; choose another");
  if (lower.includes(login.toLowerCase())) return fault("has_login", "must not contain the login");
  if (new Set(password).size < 4) return fault("few_characters", "must use more than a few different characters");
  if (estimator().check(password, [login]).score < MIN_SCORE)
    return fault("guessable", "is too easy to guess (a keyboard run, a common word or phrase with digits); a few unrelated words are better");
  return undefined;
}

/** The fault of a new password that is the current one. */
export const UNCHANGED_PASSWORD: PasswordFault = fault("unchanged", "must differ from the current password");

export const hashPassword = (password: string) => hash(password, ARGON2);

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

/** A hash of no password, verified against when the login is unknown so both answers take as long. */
let decoy: Promise<string> | undefined;
export const decoyHash = () => {
  decoy ??= hash(randomBytes(18).toString("base64url"), ARGON2);
  return decoy;
};

export const TOTP_ISSUER = "Cashier Backoffice";
const TOTP_PERIOD = 30;

export const newTotpSecret = () => new Secret({ size: 20 }).base32;

function totpOf(secretBase32: string, login: string): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label: login, algorithm: "SHA1", digits: 6, period: TOTP_PERIOD, secret: Secret.fromBase32(secretBase32) });
}

export const totpUri = (secretBase32: string, login: string) => totpOf(secretBase32, login).toString();

/** The current code (tests and the command line's own checks). */
export const totpCode = (secretBase32: string, login: string, at: Date) => totpOf(secretBase32, login).generate({ timestamp: at.getTime() });

/** The time step a code belongs to (within one step of `at`), or undefined when it is not a current code. */
export function totpStep(secretBase32: string, login: string, code: string, at: Date): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined;
  const delta = totpOf(secretBase32, login).validate({ token: code, timestamp: at.getTime(), window: 1 });
  if (delta === null) return undefined;
  return Math.floor(at.getTime() / 1000 / TOTP_PERIOD) + delta;
}

/** A random token for a link or a cookie: 32 bytes, base64url. */
export const newToken = () => randomBytes(32).toString("base64url");

/** The keyed hash a token or recovery code is stored as. */
export const tokenHash = (key: KeyObject, token: string) => createHmac("sha256", key).update(token, "utf8").digest("base64url");

/** Ten recovery codes of 10 characters in two groups ("k3f9q-2mzx8"), from an alphabet without look-alikes. */
export function newRecoveryCodes(count = 10): string[] {
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  return Array.from({ length: count }, () => {
    const bytes = randomBytes(10);
    const chars = [...bytes].map((b) => alphabet[b % alphabet.length]).join("");
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** Recovery codes are compared without case, spaces or dashes. */
export const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, "");
