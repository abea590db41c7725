/**
 * The acquirer simulator in this process, on a free port and a temp data dir,
 * with the sim connectors that reach it over HTTP, as an engine does. The
 * clock is the test's, so pending answers are exact.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startAcquirerSim, type AcquirerSim } from "../../engine/payments/processors/acquirer-sim/server.ts";
import { simConnector } from "../../engine/payments/processors/sim/integration.ts";
import type { Capabilities, Processor } from "../../engine/payments/processors/processor.ts";

export const TEST_KEYS = { "sim-a": "test-key-sim-a-0123456789", "sim-b": "test-key-sim-b-0123456789" };

/** Every call of a processor that declares all five capabilities. */
export type AllCalls = Capabilities["sale"] & Capabilities["payout"] & Capabilities["refund"] & Capabilities["threeDSecure"] & Capabilities["statusLookup"];

export function callsOf(p: Processor): AllCalls & { name: string } {
  const c = p.capabilities;
  if (!c.sale || !c.payout || !c.refund || !c.threeDSecure || !c.statusLookup) throw new Error(`${p.name} lacks a capability`);
  return { name: p.name, ...c.sale, ...c.payout, ...c.refund, ...c.threeDSecure, ...c.statusLookup };
}

export interface TestSim {
  sim: AcquirerSim;
  dir: string;
  /** A connector of sim-a or sim-b to this simulator. */
  connector(name: "sim-a" | "sim-b", opts?: { apiKey?: string; timeoutMs?: number }): AllCalls & { name: string };
  /** Stops the simulator and starts it again on the same ledger (the same port is not kept). */
  restart(now?: () => number): Promise<void>;
  addFault(f: Record<string, unknown>): Promise<Response>;
  /** The engine's settings that make it use this simulator instead of starting its own. */
  serviceEnv(): Record<string, string>;
  stop(): Promise<void>;
}

export async function startTestSim(now: () => number = Date.now): Promise<TestSim> {
  const dir = mkdtempSync(join(tmpdir(), "acquirer-sim-"));
  const start = (clock: () => number) => startAcquirerSim({ dataDir: dir, port: 0, keys: TEST_KEYS, testMode: true, now: clock });
  const self: TestSim = {
    sim: await start(now),
    dir,
    connector: (name, opts = {}) =>
      callsOf(simConnector({ name, url: self.sim.url, apiKey: opts.apiKey ?? TEST_KEYS[name], timeoutMs: opts.timeoutMs ?? 5000 })),
    async restart(clock = now) {
      await self.sim.close();
      self.sim = await start(clock);
    },
    serviceEnv: () => ({ ACQUIRER_SIM_URL: self.sim.url, ACQUIRER_SIM_KEYS: `sim-a=${TEST_KEYS["sim-a"]},sim-b=${TEST_KEYS["sim-b"]}` }),
    addFault: (f) => fetch(`${self.sim.url}/admin/faults`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(f) }),
    async stop() {
      await self.sim.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return self;
}
