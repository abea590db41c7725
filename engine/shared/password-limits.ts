/**
 * An operator password's length, in characters: the engine judges it
 * (security/operator-credentials.ts) and the console shows it, from this one
 * place, without loading the engine's hashing and strength libraries.
 */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;
