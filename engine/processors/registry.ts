/** Processors by name: the dispatcher the use cases go through. */
import type { Processor } from "./processor.ts";

/** The built-in simulated processors (CONTRACT section 4), and every merchant's default cascade. */
export const SIMULATED_PROCESSORS = ["sim-a", "sim-b"] as const;

export class ProcessorRegistry {
  readonly #byName = new Map<string, Processor>();

  constructor(processors: Processor[]) {
    for (const p of processors) this.#byName.set(p.name, p);
  }

  get(name: string): Processor | undefined {
    return this.#byName.get(name);
  }
}
