/**
 * The engine's bearer tokens (CASHIER_SERVICE_TOKENS, CASHIER_EDGE_TOKEN,
 * CASHIER_BACKOFFICE_TOKEN) are its only lock: whoever holds one reaches the
 * gRPC services it opens, AdminService included. A short or hand-made one
 * (`ops-token`) is guessable, so each must have at least 32 characters, the
 * length of 24 random bytes in base64url (what `npm start` makes for itself);
 * a weaker one stops the start naming the setting, and never echoing the token.
 */
import { ConfigError, list } from "./env-readers.ts";

/** The fewest characters a bearer token may have. */
export const MIN_TOKEN_LENGTH = 32;

/** How to make a good token, for the error messages and the docs. */
export const MAKE_TOKEN = "openssl rand -hex 24";

/** One token, checked; `which` says which of a list it is ("token 2 of 3"), for the message. */
export function checkedToken(name: string, token: string, which = "the token"): string {
  if (token.length < MIN_TOKEN_LENGTH) {
    throw new ConfigError(
      `${name}: ${which} has ${token.length} characters; a bearer token needs at least ${MIN_TOKEN_LENGTH} random ones (make one with ${MAKE_TOKEN})`,
    );
  }
  // A token is sent as "Bearer <token>" in one header value: a space or a control character could never arrive whole.
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new ConfigError(`${name}: ${which} holds a space, a control or a non-ASCII character; use visible ASCII only (make one with ${MAKE_TOKEN})`);
  }
  return token;
}

/** A single-token setting: undefined when unset or empty, else the checked token. */
export function tokenSetting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  return raw ? checkedToken(name, raw) : undefined;
}

/** A comma-separated list of tokens, each checked. */
export function tokenListSetting(env: NodeJS.ProcessEnv, name: string): string[] {
  const tokens = list(env[name]);
  return tokens.map((token, i) => checkedToken(name, token, tokens.length === 1 ? "the token" : `token ${i + 1} of ${tokens.length}`));
}
