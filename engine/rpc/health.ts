/**
 * grpc.health.v1.Health reporting the database: SERVING while Postgres answers
 * a probe, NOT_SERVING while it does not. The overall ("") and every
 * service the engine serves move together: each needs the database. A
 * process the engine supervises (engine/supervision.ts) may take out some of
 * them while it is down: the engine's own acquirer simulator takes the overall
 * status and the services that pay through it.
 */
import type * as grpc from "@grpc/grpc-js";
import { HealthImplementation } from "grpc-health-check";
import { refusingMalformed } from "./refuse-malformed.ts";

export const HEALTH_SERVICES = [
  "",
  "cashier.engine.v1.EngineService",
  "cashier.engine.v1.CashierService",
  "cashier.admin.v1.AdminService",
  "cashier.admin.v1.ConsoleAuthService",
  "cashier.admin.v1.ConsoleWorkService",
  "cashier.admin.v1.ConsoleSettingsService",
  "cashier.admin.v1.ConsoleMoneyService",
  "cashier.admin.v1.ConsoleCustomerService",
  "cashier.admin.v1.ConsoleRiskService",
];

/** A probe that has not answered by then counts as NOT_SERVING (a hung database, not only a refused one). */
export const PROBE_TIMEOUT_MS = 1500;

export interface HealthHandle {
  /** Stops probing and reports NOT_SERVING: the engine is going away. */
  stop(): void;
  /** Probes now (a supervised process went down or came back), not at the next interval. */
  recheck(): void;
}

/**
 * `notServing`: the services (HEALTH_SERVICES' names) a supervised process that is down takes out, even while the
 * database answers; read at each probe.
 */
export function addHealth(
  server: grpc.Server,
  probe: () => Promise<void>,
  intervalMs = 2000,
  notServing: () => ReadonlySet<string> = () => new Set(),
): HealthHandle {
  const health = new HealthImplementation(Object.fromEntries(HEALTH_SERVICES.map((s) => [s, "NOT_SERVING"])));
  // A probe's malformed bytes are its own fault (INVALID_ARGUMENT), not the engine's (INTERNAL).
  health.addToServer(refusingMalformed(server));
  const current = new Map<string, string>();
  let running = false;
  let stopped = false;
  const set = (next: "SERVING" | "NOT_SERVING") => {
    // Once stopping, a probe finishing late cannot say SERVING again.
    if (stopped && next === "SERVING") return;
    const out = next === "SERVING" ? notServing() : undefined;
    for (const s of HEALTH_SERVICES) {
      const status = out?.has(s) ? "NOT_SERVING" : next;
      if (current.get(s) === status) continue;
      current.set(s, status);
      health.setStatus(s, status);
    }
  };
  const check = async () => {
    // One probe at a time: a hung database must not pile probes onto the pool.
    if (running) {
      set("NOT_SERVING");
      return;
    }
    running = true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<"NOT_SERVING">((resolve) => (timer = setTimeout(() => resolve("NOT_SERVING"), PROBE_TIMEOUT_MS)));
    const answered = probe().then(
      () => "SERVING" as const,
      () => "NOT_SERVING" as const,
    );
    void answered.finally(() => {
      running = false;
    });
    set(await Promise.race([answered, late]));
    clearTimeout(timer);
  };
  void check();
  const timer = setInterval(() => void check(), intervalMs);
  timer.unref();
  return {
    stop: () => {
      stopped = true;
      clearInterval(timer);
      set("NOT_SERVING");
    },
    // A probe under way reads the supervised processes when it answers.
    recheck: () => {
      if (!running) void check();
    },
  };
}
