/**
 * A platform stub and a service whose merchants call it back
 * (platformMerchants): the set-up the callback, payout, audit and console
 * tests share. The stub starts before the service; callbacks to 127.0.0.1
 * are allowed and the workers poll every 100 ms, unless `env` says otherwise.
 */
import { PLATFORM_SECRETS, platformMerchants } from "./platform-merchants.ts";
import { startPlatformStub, type PlatformStub } from "./platform-stub.ts";
import { type Service, type ServiceOptions, useService } from "./service.ts";

export function usePlatformService(
  t: { before(fn: () => Promise<void>): void; teardown(fn: () => Promise<void>): void },
  env: Record<string, string> = {},
  opts: Omit<ServiceOptions, "merchants"> = {},
): { svc: () => Service; stub: () => PlatformStub } {
  let stub: PlatformStub | undefined;
  t.before(async () => {
    stub = await startPlatformStub({ secrets: PLATFORM_SECRETS });
  });
  t.teardown(async () => {
    await stub?.close();
  });
  const started = () => {
    if (!stub) throw new Error("the platform stub is not started yet");
    return stub;
  };
  const svc = useService(t, { CASHIER_CALLBACK_ALLOW_PRIVATE: "1", CASHIER_WORKER_POLL_MS: "100", ...env }, () => ({
    ...opts,
    merchants: platformMerchants(started().url),
  }));
  return { svc, stub: started };
}
