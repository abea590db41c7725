/**
 * Processors by name: the dispatcher the use cases go through. A use case asks
 * for a capability, not a processor: what a processor has not declared is
 * refused here, by name, as data (CAPABILITY_MISSING), so that every caller
 * answers the same sentence.
 */
import { SIMULATED_ACQUIRERS } from "../../shared/config/acquirer-sim-keys.ts";
import { domainError, type DomainError } from "../../shared/errors.ts";
import { CAPABILITY_WORDS, type Capabilities, type Capability, type Processor } from "./processor.ts";

/** The built-in simulated processors (CONTRACT section 4), and every merchant's default cascade. */
export const SIMULATED_PROCESSORS = SIMULATED_ACQUIRERS;

export type CapabilityResult<C extends Capability> = { ok: true; calls: Capabilities[C] } | { ok: false; error: DomainError };

/** The refusal of a capability a processor does not have (or of a processor that is not registered). */
export function capabilityMissing(processor: string, capability: Capability, registered = true): DomainError {
  const message = registered
    ? `processor ${processor} does not support ${CAPABILITY_WORDS[capability]}`
    : `processor ${processor} is not configured in this engine`;
  return domainError("CAPABILITY_MISSING", message, [{ field: "processor", description: message }]);
}

/** A merchant's account at a processor, as the registry needs it (app/ports.ts ProcessorAccount). */
export interface AccountSettings {
  processor: string;
  enabled: boolean;
  url: string;
  apiKey: string;
  settings: Record<string, unknown>;
}

/** Whose processors: a merchant with its accounts; without one, the engine's own connectors. */
export interface AccountHolder {
  id: string;
  processorAccounts: readonly AccountSettings[];
}

/** Builds a processor's connector from a merchant's account (its endpoint, key and settings). */
export type ConnectorFactory = (account: AccountSettings) => Processor;

export class ProcessorRegistry {
  readonly #byName = new Map<string, Processor>();
  readonly #factories: Record<string, ConnectorFactory>;
  /** Connectors built from merchants' accounts, by merchant and processor, with the account they were built from. */
  readonly #built = new Map<string, { fingerprint: string; processor: Processor }>();

  constructor(processors: Processor[], factories: Record<string, ConnectorFactory> = {}) {
    for (const p of processors) this.#byName.set(p.name, p);
    this.#factories = factories;
  }

  /** The engine's own connector of `name` (the one merchants without an account use). */
  get(name: string): Processor | undefined {
    return this.#byName.get(name);
  }

  /** The processor `name` as `holder` reaches it: through its account when it has one. */
  #resolve(name: string, holder: AccountHolder | undefined): Processor | { refused: string } | undefined {
    const account = holder?.processorAccounts.find((a) => a.processor === name);
    if (!account || !holder) return this.#byName.get(name);
    if (!account.enabled) return { refused: `processor ${name} is disabled for merchant ${holder.id}` };
    const factory = this.#factories[name];
    if (!factory) return undefined;
    const key = `${holder.id}/${name}`;
    const fingerprint = JSON.stringify([account.url, account.apiKey, account.settings]);
    const cached = this.#built.get(key);
    if (cached?.fingerprint === fingerprint) return cached.processor;
    const processor = factory(account);
    this.#built.set(key, { fingerprint, processor });
    return processor;
  }

  /** Whether `name` is reachable (for `holder`) and declares `capability`. */
  supports(name: string, capability: Capability, holder?: AccountHolder): boolean {
    const p = this.#resolve(name, holder);
    return p !== undefined && !("refused" in p) && p.capabilities[capability] !== undefined;
  }

  /** The calls of one capability of one processor (for `holder`, through its account), or its refusal by name. */
  capability<C extends Capability>(name: string, capability: C, holder?: AccountHolder): CapabilityResult<C> {
    const p = this.#resolve(name, holder);
    if (!p) return { ok: false, error: capabilityMissing(name, capability, false) };
    if ("refused" in p) return { ok: false, error: domainError("CAPABILITY_MISSING", p.refused, [{ field: "processor", description: p.refused }]) };
    const calls = p.capabilities[capability];
    return calls ? { ok: true, calls } : { ok: false, error: capabilityMissing(name, capability) };
  }
}
