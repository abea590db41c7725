/**
 * Cashier over sockets beside a simulator of the test's own (startDialectSim): the simulator starts first, so that
 * the merchants file Cashier starts with can point its accounts at the simulator's address. Both stop with the test.
 */
import type { Test } from "tap";
import { type DialectSim, startDialectSim } from "./acquirer-sim-dialects.ts";
import { type Service, type ServiceOptions, useService } from "./service.ts";

/** The running service and the simulator, each read once the test's `before` has run. */
export interface DialectService {
  service(): Service;
  acquirer(): DialectSim;
}

/** Starts a simulator, then Cashier with `merchants(simUrl)` as its merchants file. */
export function useDialectService(t: Test, merchants: (simUrl: string) => NonNullable<ServiceOptions["merchants"]>): DialectService {
  let sim: DialectSim | undefined;
  t.before(async () => {
    sim = await startDialectSim(t);
  });
  const acquirer = () => {
    if (!sim) throw new Error("the acquirer simulator is not started yet");
    return sim;
  };
  const service = useService(t, {}, () => ({ merchants: merchants(acquirer().sim.url) }));
  return { service, acquirer };
}
