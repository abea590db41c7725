/** Processors by name: the dispatcher the use cases go through. */
import type { Processor } from "./processor.ts";

export class ProcessorRegistry {
  readonly #byName = new Map<string, Processor>();

  constructor(processors: Processor[]) {
    for (const p of processors) this.#byName.set(p.name, p);
  }

  get(name: string): Processor | undefined {
    return this.#byName.get(name);
  }

}
