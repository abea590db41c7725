/**
 * Merchants at start: the CASHIER_MERCHANTS_FILE entries are upserted every
 * start; without a file, the first start on an empty database creates a demo
 * merchant with a random secret, written to <data dir>/demo-merchant.json for
 * the README's signing snippet, and prints it.
 */
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isCurrency } from "../domain/money.ts";
import type { MerchantSpec } from "../store/merchant-store.ts";

export class MerchantsFileError extends Error {}

export interface MerchantSink {
  upsert(spec: MerchantSpec): Promise<void>;
  count(): Promise<number>;
}

const KNOWN_PROCESSORS = new Set(["sim-a", "sim-b"]);

function str(obj: Record<string, unknown>, key: string, where: string, required: boolean): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) {
    if (required) throw new MerchantsFileError(`${where}.${key} is required`);
    return undefined;
  }
  if (typeof v !== "string" || v.trim() === "") throw new MerchantsFileError(`${where}.${key} must be a non-empty string`);
  return v;
}

function url(obj: Record<string, unknown>, key: string, where: string): string | null {
  const v = str(obj, key, where, false);
  if (v === undefined) return null;
  try {
    const u = new URL(v);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error();
  } catch {
    throw new MerchantsFileError(`${where}.${key} must be an http(s) URL`);
  }
  return v;
}

/** Parses and checks the merchants file (CONTRACT section 1), naming the first bad entry. */
export function parseMerchantsFile(text: string): MerchantSpec[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new MerchantsFileError(`not JSON: ${(err as Error).message}`);
  }
  const list = (doc as { merchants?: unknown })?.merchants;
  if (!Array.isArray(list)) throw new MerchantsFileError('must be {"merchants": [...]}');
  return list.map((raw, i) => {
    const where = `merchants[${i}]`;
    if (typeof raw !== "object" || raw === null) throw new MerchantsFileError(`${where} must be an object`);
    const m = raw as Record<string, unknown>;
    const merchantId = str(m, "merchant_id", where, true)!;
    if (merchantId.length > 50) throw new MerchantsFileError(`${where}.merchant_id must be at most 50 characters`);
    const statuses = str(m, "update_payout_statuses", where, false) ?? "CAPYJ";
    if (!/^[CAPYJ]{0,5}$/.test(statuses)) throw new MerchantsFileError(`${where}.update_payout_statuses must be letters of CAPYJ`);
    const approval = str(m, "payout_approval", where, false) ?? "auto";
    if (approval !== "auto" && approval !== "manual") throw new MerchantsFileError(`${where}.payout_approval must be auto or manual`);
    const processors = m.processors ?? ["sim-a", "sim-b"];
    if (!Array.isArray(processors) || processors.length === 0 || !processors.every((p) => typeof p === "string" && KNOWN_PROCESSORS.has(p))) {
      throw new MerchantsFileError(`${where}.processors must be a non-empty list of ${[...KNOWN_PROCESSORS].join(", ")}`);
    }
    const siteId = m.site_id;
    if (siteId !== undefined && siteId !== null && !Number.isInteger(siteId)) throw new MerchantsFileError(`${where}.site_id must be an integer`);
    if (!Array.isArray(m.frontends) || m.frontends.length === 0) throw new MerchantsFileError(`${where}.frontends must be a non-empty list`);
    const frontends = m.frontends.map((fr, j) => {
      const fw = `${where}.frontends[${j}]`;
      if (typeof fr !== "object" || fr === null) throw new MerchantsFileError(`${fw} must be an object`);
      const f = fr as Record<string, unknown>;
      const name = str(f, "name", fw, true)!;
      const base = str(f, "base_currency", fw, true)!;
      if (!isCurrency(base)) throw new MerchantsFileError(`${fw}.base_currency must be an ISO 4217 code`);
      const currencies = f.currencies ?? [base];
      if (!Array.isArray(currencies) || !currencies.every((c) => typeof c === "string" && isCurrency(c))) {
        throw new MerchantsFileError(`${fw}.currencies must be a list of ISO 4217 codes`);
      }
      return { name, baseCurrency: base, currencies: currencies as string[] };
    });
    return {
      merchantId,
      secret: str(m, "secret", where, true)!,
      siteId: (siteId as number | undefined) ?? null,
      platformUrl: url(m, "platform_url", where),
      validationUrl: url(m, "validation_url", where),
      updatePayoutUrl: url(m, "update_payout_url", where),
      updatePayoutStatuses: statuses,
      payoutApproval: approval,
      processors: processors as string[],
      frontends,
    };
  });
}

export const DEMO = { merchantId: "m-demo", frontend: "demo-usd" };

export async function bootstrapMerchants(
  sink: MerchantSink,
  merchantsFile: string | undefined,
  dataDir: string,
  log: (msg: string, extra?: Record<string, unknown>) => void,
): Promise<void> {
  if (merchantsFile) {
    const specs = parseMerchantsFile(await readFile(merchantsFile, "utf8"));
    for (const spec of specs) await sink.upsert(spec);
    log(`merchants file applied: ${specs.map((s) => s.merchantId).join(", ")}`);
    return;
  }
  if ((await sink.count()) > 0) return;
  const secret = randomBytes(24).toString("base64url");
  await sink.upsert({
    merchantId: DEMO.merchantId,
    secret,
    frontends: [{ name: DEMO.frontend, baseCurrency: "USD", currencies: ["USD", "EUR", "JPY"] }],
  });
  const file = join(dataDir, "demo-merchant.json");
  await writeFile(file, JSON.stringify({ merchant_id: DEMO.merchantId, secret, frontend: DEMO.frontend }, null, 2) + "\n", { mode: 0o600 });
  // Printed once, on purpose: the operator needs it to sign the first request.
  process.stdout.write(
    `\nDemo merchant created (no CASHIER_MERCHANTS_FILE):\n  merchant_id: ${DEMO.merchantId}\n  secret:      ${secret}\n  frontend:    ${DEMO.frontend} (USD; accepts USD, EUR, JPY)\n  saved in:    ${file}\n\n`,
  );
  log("demo merchant created", { merchant_id: DEMO.merchantId, file });
}
