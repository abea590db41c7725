/**
 * grpc.health.v1.Health reporting the database: SERVING while Postgres answers
 * a probe, NOT_SERVING while it does not. The overall ("") and the engine
 * service's status move together.
 */
import type * as grpc from "@grpc/grpc-js";
import { HealthImplementation } from "grpc-health-check";

export const HEALTH_SERVICES = ["", "cashier.engine.v1.EngineService"];

export interface HealthHandle {
  stop(): void;
}

export function addHealth(server: grpc.Server, probe: () => Promise<void>, intervalMs = 2000): HealthHandle {
  const health = new HealthImplementation(Object.fromEntries(HEALTH_SERVICES.map((s) => [s, "NOT_SERVING"])));
  health.addToServer(server);
  let current = "";
  const check = async () => {
    let next: "SERVING" | "NOT_SERVING";
    try {
      await probe();
      next = "SERVING";
    } catch {
      next = "NOT_SERVING";
    }
    if (next !== current) {
      current = next;
      for (const s of HEALTH_SERVICES) health.setStatus(s, next);
    }
  };
  void check();
  const timer = setInterval(() => void check(), intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
