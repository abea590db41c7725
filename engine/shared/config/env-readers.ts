/**
 * The typed readers of single settings that config.ts (and the Backoffice's
 * config) are made of: each takes the variable's name, so that a wrong value
 * stops the start with a ConfigError naming it and saying what it must be.
 */

/** A setting that cannot be used: the message names the variable and what it must be. */
export class ConfigError extends Error {}

export function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new ConfigError(`${name} must be a port number (0-65535), got ${JSON.stringify(raw)}`);
  return n;
}

export function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`${name} must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}

/** A whole number, 0 allowed (a retention of 0 days keeps rows for good). */
export function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`${name} must be a whole number (0 or more), got ${JSON.stringify(raw)}`);
  return n;
}

/** 0 or 1 (false or true); unset or empty: `fallback`. */
export function flag(env: NodeJS.ProcessEnv, name: string, fallback = false): boolean {
  const raw = (env[name] ?? "").trim();
  if (raw === "") return fallback;
  if (raw === "1" || raw === "true") return true;
  if (raw === "0" || raw === "false") return false;
  throw new ConfigError(`${name} must be 0 or 1, got ${JSON.stringify(raw)}`);
}

/**
 * A listening address (an IP address or a host name); unset: `fallback`. Loopback is every
 * listener's default but the edge's: a port reachable from elsewhere is the operator's choice.
 */
export function host(env: NodeJS.ProcessEnv, name: string, fallback: string): string {
  const raw = env[name] || fallback;
  if (/[\s/]/.test(raw)) throw new ConfigError(`${name} must be an address or a host name, got ${JSON.stringify(raw)}`);
  return raw;
}

/** The non-empty entries of a comma-separated setting, trimmed. */
export function list(raw: string | undefined): string[] {
  return (raw ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

export function secondsList(env: NodeJS.ProcessEnv, name: string, fallback: number[]): number[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const values = list(raw).map(Number);
  if (values.length === 0 || values.some((n) => !Number.isInteger(n) || n <= 0)) {
    throw new ConfigError(`${name} must be comma-separated positive whole seconds, got ${JSON.stringify(raw)}`);
  }
  return values;
}
