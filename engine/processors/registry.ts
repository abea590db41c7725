/**
 * Processors by name: the dispatcher the use cases go through. A use case asks
 * for a capability, not a processor: what a processor has not declared is
 * refused here, by name, as data (CAPABILITY_MISSING), so that every caller
 * answers the same sentence.
 */
import { domainError, type DomainError } from "../domain/errors.ts";
import { CAPABILITY_WORDS, type Capabilities, type Capability, type Processor } from "./processor.ts";

/** The built-in simulated processors (CONTRACT section 4), and every merchant's default cascade. */
export const SIMULATED_PROCESSORS = ["sim-a", "sim-b"] as const;

export type CapabilityResult<C extends Capability> = { ok: true; calls: Capabilities[C] } | { ok: false; error: DomainError };

/** The refusal of a capability a processor does not have (or of a processor that is not registered). */
export function capabilityMissing(processor: string, capability: Capability, registered = true): DomainError {
  const message = registered
    ? `processor ${processor} does not support ${CAPABILITY_WORDS[capability]}`
    : `processor ${processor} is not configured in this engine`;
  return domainError("CAPABILITY_MISSING", message, [{ field: "processor", description: message }]);
}

export class ProcessorRegistry {
  readonly #byName = new Map<string, Processor>();

  constructor(processors: Processor[]) {
    for (const p of processors) this.#byName.set(p.name, p);
  }

  get(name: string): Processor | undefined {
    return this.#byName.get(name);
  }

  /** Whether `name` is registered and declares `capability`. */
  supports(name: string, capability: Capability): boolean {
    return this.#byName.get(name)?.capabilities[capability] !== undefined;
  }

  /** The calls of one capability of one processor, or its refusal by name. */
  capability<C extends Capability>(name: string, capability: C): CapabilityResult<C> {
    const p = this.#byName.get(name);
    if (!p) return { ok: false, error: capabilityMissing(name, capability, false) };
    const calls = p.capabilities[capability];
    return calls ? { ok: true, calls } : { ok: false, error: capabilityMissing(name, capability) };
  }
}
