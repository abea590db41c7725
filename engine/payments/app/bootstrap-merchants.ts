/**
 * Merchants at start: the CASHIER_MERCHANTS_FILE entries are upserted every
 * start; without a file, the first start on an empty database creates a demo
 * merchant with a random secret, written to <data dir>/demo-merchant.json for
 * the README's signing snippet, and prints it.
 */
import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { StartError } from "../../shared/runtime/start-error.ts";
import { readSettingFile } from "../../shared/runtime/setting-file.ts";
import type { CallbackUrlCheck } from "../callbacks/address-guard.ts";
import { MIN_SECRET_LENGTH, parseMerchantsFile } from "./merchant-spec.ts";
import type { MerchantSpec } from "../ports/merchants.ts";
import { DEFAULT_FRONTEND_SETTINGS, type FrontendSettings } from "../domain/frontend-settings.ts";

export interface MerchantSink {
  upsert(spec: MerchantSpec): Promise<void>;
  count(): Promise<number>;
}

export const DEMO = { merchantId: "m-demo", frontend: "demo-usd" };

/**
 * The demo frontend's hosted Cashier: it may be framed by pages of the service's
 * own host (a merchant page tried out locally), offers four amounts and
 * bounds what is paid in and out, so every part of the deposit page shows.
 */
export function demoFrontendSettings(edgePort: number, publicUrl: string | undefined): FrontendSettings {
  const origins = edgePort > 0 ? [`http://localhost:${edgePort}`, `http://127.0.0.1:${edgePort}`] : [];
  const publicOrigin = publicUrl ? new URL(publicUrl).origin : undefined;
  if (publicOrigin && !origins.includes(publicOrigin)) origins.push(publicOrigin);
  const limits = { depositMin: 500, depositMax: 500_000, withdrawalMin: 1000, withdrawalMax: 500_000 };
  return {
    ...DEFAULT_FRONTEND_SETTINGS,
    allowedOrigins: origins,
    depositPresets: [1000, 2500, 5000, 10_000],
    limits: { USD: limits, EUR: limits, JPY: limits },
  };
}

/** The callback addresses of a merchant the engine calls, by the field that holds each. */
export const CALLBACK_URL_FIELDS = ["platform_url", "validation_url", "update_payout_url"] as const;

function callbackUrls(spec: MerchantSpec): [(typeof CALLBACK_URL_FIELDS)[number], string | null | undefined][] {
  return [
    ["platform_url", spec.platformUrl],
    ["validation_url", spec.validationUrl],
    ["update_payout_url", spec.updatePayoutUrl],
  ];
}

/**
 * The merchants file, read and checked before anything starts: a file that is missing, unreadable, not JSON or
 * with a bad entry stops the start with one line naming the setting, the file and the entry. A callback address
 * the SSRF guard would refuse to call (`checkUrl`: loopback or private while CASHIER_CALLBACK_ALLOW_PRIVATE is off)
 * is such an entry: started with it, every Validation would be declined and every notification lost.
 */
export async function readMerchantsFile(path: string, checkUrl: CallbackUrlCheck): Promise<MerchantSpec[]> {
  const fix = "correct the file (docs/operations.md, Merchants file), or unset CASHIER_MERCHANTS_FILE, and start again";
  const text = await readSettingFile("CASHIER_MERCHANTS_FILE", path, fix);
  let specs: MerchantSpec[];
  try {
    specs = parseMerchantsFile(text);
  } catch (err) {
    throw new StartError(`CASHIER_MERCHANTS_FILE ${path}: ${(err as Error).message}`, fix);
  }
  for (const [i, spec] of specs.entries())
    for (const [field, url] of callbackUrls(spec)) {
      const problem = url ? await checkUrl(url) : undefined;
      if (problem) throw new StartError(`CASHIER_MERCHANTS_FILE ${path}: merchants[${i}].${field} ${problem}`, fix);
    }
  return specs;
}

/**
 * What a start warns of in a merchants-file entry it takes: a secret shorter than AdminService allows. (An address
 * the callbacks would refuse is no warning: readMerchantsFile refuses the file.)
 */
export function merchantWarnings(spec: MerchantSpec): { message: string; fields?: Record<string, string> }[] {
  const id = spec.merchantId;
  const warnings: { message: string; fields?: Record<string, string> }[] = [];
  if ([...spec.secret].length < MIN_SECRET_LENGTH)
    warnings.push({
      message: `merchant ${id}: its secret is shorter than ${MIN_SECRET_LENGTH} characters, which AdminService would refuse; it keys every signature: rotate it to a long random one`,
    });
  return warnings;
}

export async function bootstrapMerchants(
  sink: MerchantSink,
  merchantsFile: MerchantSpec[] | undefined,
  dataDir: string,
  log: (msg: string, extra?: Record<string, unknown>) => void,
  demoSettings: FrontendSettings = DEFAULT_FRONTEND_SETTINGS,
  /** Called with each merchant of the file, once it is stored (the engine warns of addresses its callbacks will refuse). */
  onApplied: (spec: MerchantSpec) => void = () => {},
): Promise<void> {
  if (merchantsFile) {
    const specs = merchantsFile;
    for (const spec of specs) {
      await sink.upsert(spec);
      onApplied(spec);
    }
    log(`merchants file applied: ${specs.map((s) => s.merchantId).join(", ")}`);
    return;
  }
  if ((await sink.count()) > 0) return;
  const secret = randomBytes(24).toString("base64url");
  await sink.upsert({
    merchantId: DEMO.merchantId,
    secret,
    frontends: [{ name: DEMO.frontend, baseCurrency: "USD", currencies: ["USD", "EUR", "JPY"], settings: demoSettings }],
  });
  const file = join(dataDir, "demo-merchant.json");
  await writeFile(file, `${JSON.stringify({ merchant_id: DEMO.merchantId, secret, frontend: DEMO.frontend }, null, 2)}\n`, { mode: 0o600 });
  // Printed once, on purpose: the operator needs it to sign the first request.
  process.stdout.write(
    `\nDemo merchant created (no CASHIER_MERCHANTS_FILE):\n  merchant_id: ${DEMO.merchantId}\n  secret:      in ${file} (never printed: logs carry no secret)\n  frontend:    ${DEMO.frontend} (USD; accepts USD, EUR, JPY)\n  saved in:    ${file}\n\n`,
  );
  log("demo merchant created", { merchant_id: DEMO.merchantId, file });
}
