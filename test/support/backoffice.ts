/**
 * The Backoffice console for a test: started on a free loopback port beside a
 * service of test/support/service.ts, calling its engine with the
 * Backoffice's token (the service token while the engine has none of its
 * own), logging into the service's log file. Plus the operator helpers the
 * console's tests share: an operator created through AdminService, enrolled
 * through the console's own pages over HTTP, and TOTP codes computed with
 * otpauth as an authenticator app would.
 */
import pino from "pino";
import * as OTPAuth from "otpauth";
import { createLogger } from "../../engine/log.ts";
import { startBackoffice, type BackofficeHandle } from "../../edge/backoffice/server.ts";
import type { SignInLimit } from "../../edge/backoffice/rate-limit.ts";
import { SERVICE_TOKEN, type Service } from "./service.ts";

export interface ConsoleOptions {
  signInLimit?: SignInLimit;
  tls?: { cert: string | Buffer; key: string | Buffer };
  publicUrl?: string;
}

/** The token the console presents: the engine's own Backoffice token when it has one. */
export function backofficeToken(svc: Service): string {
  return (svc.engine as { backofficeToken?: string }).backofficeToken ?? SERVICE_TOKEN;
}

export async function startConsole(svc: Service, opts: ConsoleOptions = {}): Promise<BackofficeHandle> {
  const log = createLogger("debug", pino.destination({ dest: svc.logFile, sync: true, append: true })).child({ process: "backoffice" });
  return startBackoffice({
    port: 0,
    host: "127.0.0.1",
    engineUrl: svc.engineUrl,
    token: backofficeToken(svc),
    log,
    ...opts,
  });
}

/** The current code of a base32 TOTP secret, as an authenticator app shows it (offset in 30 s steps). */
export function totpCode(secretBase32: string, stepOffset = 0): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secretBase32.replace(/\s+/g, "")), digits: 6, period: 30, algorithm: "SHA1" });
  return totp.generate({ timestamp: Date.now() + stepOffset * 30_000 });
}
