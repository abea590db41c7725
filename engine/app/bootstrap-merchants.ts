/**
 * Merchants at start: the CASHIER_MERCHANTS_FILE entries are upserted every
 * start; without a file, the first start on an empty database creates a demo
 * merchant with a random secret, written to <data dir>/demo-merchant.json for
 * the README's signing snippet, and prints it.
 */
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseMerchantsFile } from "./merchant-spec.ts";
import type { MerchantSpec } from "./ports.ts";

export interface MerchantSink {
  upsert(spec: MerchantSpec): Promise<void>;
  count(): Promise<number>;
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
  await writeFile(file, `${JSON.stringify({ merchant_id: DEMO.merchantId, secret, frontend: DEMO.frontend }, null, 2)}\n`, { mode: 0o600 });
  // Printed once, on purpose: the operator needs it to sign the first request.
  process.stdout.write(
    `\nDemo merchant created (no CASHIER_MERCHANTS_FILE):\n  merchant_id: ${DEMO.merchantId}\n  secret:      ${secret}\n  frontend:    ${DEMO.frontend} (USD; accepts USD, EUR, JPY)\n  saved in:    ${file}\n\n`,
  );
  log("demo merchant created", { merchant_id: DEMO.merchantId, file });
}
