/**
 * The processes an engine starts and keeps running (the embedded Postgres, its
 * own acquirer simulator), each under a supervisor (shared/runtime/supervise.ts),
 * and what each takes out of health while it is down: the composition root's
 * list, so that health knows no process and the supervisor knows no service.
 */
import { HEALTH_SERVICES } from "./rpc/health.ts";
import type { Logger } from "./shared/runtime/log.ts";
import { supervise, type RestartPolicy, type Supervisable, type Supervisor } from "./shared/runtime/supervise.ts";

/** The embedded Postgres: every service needs the database. */
export const EMBEDDED_POSTGRES = { name: "the embedded Postgres", takesOut: HEALTH_SERVICES };

/**
 * The engine's own acquirer simulator: the overall status and the services that take payments through it (the
 * default cascade); the operators' and the Backoffice's services still answer.
 */
export const OWN_ACQUIRER_SIM = {
  name: "the acquirer simulator",
  takesOut: ["", "cashier.engine.v1.EngineService", "cashier.engine.v1.CashierService"],
};

export interface Supervision {
  /** Supervises `target` (running) as `process`. */
  watch(process: { name: string; takesOut: readonly string[] }, target: Supervisable): void;
  /** Whether the process of that name is down (ended, not yet started again). */
  isDown(name: string): boolean;
  /** The health services the processes that are down take out. */
  notServing(): ReadonlySet<string>;
  /** Called when a process goes down or comes back (the health's recheck). */
  onChange(fn: () => void): void;
  /** Stops every supervisor, before the engine stops the processes themselves. */
  stop(): Promise<void>;
}

/** `onGiveUp`: a process could not be brought back; the supervisor has logged `line`, the caller exits. */
export function createSupervision(log: Logger, onGiveUp: (line: string) => void, policy?: RestartPolicy): Supervision {
  const watched: { name: string; takesOut: readonly string[]; supervisor: Supervisor }[] = [];
  let changed = () => {};
  return {
    watch(process, target) {
      const supervisor = supervise(process.name, target, { onDown: () => changed(), onUp: () => changed(), onGiveUp }, log, policy);
      watched.push({ ...process, supervisor });
    },
    isDown: (name) => watched.some((w) => w.name === name && w.supervisor.down),
    notServing: () => new Set(watched.filter((w) => w.supervisor.down).flatMap((w) => w.takesOut)),
    onChange(fn) {
      changed = fn;
    },
    async stop() {
      await Promise.all(watched.map((w) => w.supervisor.stop()));
    },
  };
}
