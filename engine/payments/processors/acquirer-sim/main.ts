/**
 * `npm run acquirer-sim`: the simulated acquirers behind sim-a and sim-b, and
 * the Checkout.com and Adyen stand-ins, as a service of their own. Started by an engine (spawn.ts) it tells its parent
 * the port over IPC and exits when the parent is gone, even after a kill -9.
 */
// First: the .env file's settings must be in the environment before any module reads it.
import "../../../shared/config/env-file.ts";
import { createLogger } from "../../../shared/runtime/log.ts";
import { startAcquirerSim } from "./server.ts";
import { loadAcquirerSimSettings } from "./settings.ts";

const log = createLogger(process.env.LOG_LEVEL || "info").child({ process: "acquirer-sim" });
try {
  const s = loadAcquirerSimSettings(process.env);
  const sim = await startAcquirerSim({ ...s, log });
  const accounts = { checkout: s.accounts.checkout.length, adyen: s.accounts.adyen.length };
  log.info(
    { port: sim.port, dataDir: s.dataDir, testMode: s.testMode, acquirers: Object.keys(s.keys), accounts },
    `acquirer simulator listening on ${sim.url}`,
  );
  process.send?.({ listening: sim.port });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await sim.close();
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  process.on("disconnect", stop);
} catch (err) {
  log.fatal({ err: (err as Error).message }, "the acquirer simulator could not start");
  process.send?.({ failed: (err as Error).message });
  process.exit(1);
}
