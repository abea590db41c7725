/**
 * ACQUIRER_SIM_KEYS, read by the engine's settings and by the acquirer
 * simulator's own (engine/payments/processors/acquirer-sim/settings.ts): one
 * key per simulated acquirer.
 */

/** The acquirers the built-in simulator plays (engine/payments/processors/registry.ts names them as processors). */
export const SIMULATED_ACQUIRERS = ["sim-a", "sim-b"] as const;

/** "sim-a=KEY,sim-b=KEY" -> { "sim-a": "KEY", ... }; every simulated acquirer needs one. */
export function parseKeys(name: string, raw: string): Record<string, string> {
  const keys: Record<string, string> = {};
  for (const part of raw
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    const eq = part.indexOf("=");
    const acquirer = part.slice(0, eq);
    const key = part.slice(eq + 1);
    if (eq <= 0 || key.length < 8 || !(SIMULATED_ACQUIRERS as readonly string[]).includes(acquirer)) {
      throw new Error(`${name} must be ${SIMULATED_ACQUIRERS.map((n) => `${n}=<key of 8 characters or more>`).join(",")}`);
    }
    keys[acquirer] = key;
  }
  const missing = SIMULATED_ACQUIRERS.filter((n) => !keys[n]);
  if (missing.length > 0) throw new Error(`${name} has no key for ${missing.join(", ")}`);
  return keys;
}
