/**
 * `npm run platform-stub`: the platform stub as a process, to watch a demo's callbacks arrive. It takes
 * merchant secrets from the merchants file, the demo merchant file and PLATFORM_STUB_SECRETS (later ones
 * win), prints one line per callback with the verdict on its signature and the body, and never a secret.
 *
 *   PLATFORM_STUB_PORT     listening port (default 9000; 0 = any free port)
 *   PLATFORM_STUB_HOST     listening address (default 127.0.0.1)
 *   CASHIER_MERCHANTS_FILE {merchants:[{merchant_id, secret, ...}]} (CONTRACT section 1)
 *   CASHIER_DATA_DIR       where demo-merchant.json is read (default .data)
 *   PLATFORM_STUB_SECRETS  m-a:secret,m-b:secret
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PlatformStub, type ReceivedCall } from "./platform-stub.ts";

/** Merchant secrets from every source that is present, with where each came from (for the start line). */
function loadSecrets(env: NodeJS.ProcessEnv): { secrets: Record<string, string>; sources: string[] } {
  const secrets: Record<string, string> = {};
  const sources: string[] = [];
  const file = env.CASHIER_MERCHANTS_FILE;
  if (file) {
    const doc = JSON.parse(readFileSync(file, "utf8")) as { merchants?: { merchant_id?: unknown; secret?: unknown }[] };
    if (!Array.isArray(doc.merchants)) throw new Error(`${file}: must be {"merchants": [...]}`);
    for (const m of doc.merchants) {
      if (typeof m.merchant_id === "string" && typeof m.secret === "string") secrets[m.merchant_id] = m.secret;
    }
    sources.push(file);
  }
  const demo = join(env.CASHIER_DATA_DIR ?? ".data", "demo-merchant.json");
  if (existsSync(demo)) {
    const m = JSON.parse(readFileSync(demo, "utf8")) as { merchant_id?: unknown; secret?: unknown };
    if (typeof m.merchant_id === "string" && typeof m.secret === "string") {
      secrets[m.merchant_id] = m.secret;
      sources.push(demo);
    }
  }
  if (env.PLATFORM_STUB_SECRETS) {
    for (const [i, pair] of env.PLATFORM_STUB_SECRETS.split(",").entries()) {
      const colon = pair.indexOf(":");
      // The entry itself is not echoed: it may be a secret without its merchant.
      if (colon <= 0) throw new Error(`PLATFORM_STUB_SECRETS: entry ${i + 1} is not merchant:secret`);
      secrets[pair.slice(0, colon).trim()] = pair.slice(colon + 1).trim();
    }
    sources.push("PLATFORM_STUB_SECRETS");
  }
  return { secrets, sources };
}

/** JSON with the methods that keep a number's text (Node 22+), absent from TypeScript's es2024 lib. */
const RawJSON = JSON as JSON & { rawJSON(text: string): unknown };

/**
 * The body pretty-printed with every number written as it arrived: the PascalCase callbacks carry money
 * as `10.50`, and a parse-and-print would show `10.5`, hiding the very decimals one wants to check.
 */
function pretty(raw: string): string {
  const reviver = (_key: string, value: unknown, context?: { source?: string }) =>
    typeof value === "number" && context?.source !== undefined ? RawJSON.rawJSON(context.source) : value;
  try {
    return JSON.stringify(JSON.parse(raw, reviver as (key: string, value: unknown) => unknown), null, 2);
  } catch {
    return raw;
  }
}

/** The readable form of one call: a summary line, then the body pretty-printed and indented. */
function format(call: ReceivedCall): string {
  const sig = call.signatureValid ? "signature ok" : `signature BAD (${call.signatureError})`;
  const reply = call.reply.hang ? "hanging" : `${call.reply.httpStatus}${call.reply.delayMs ? ` after ${call.reply.delayMs} ms` : ""}`;
  const head = `${call.receivedAt.toISOString()} ${call.kind} merchant=${call.merchantId ?? "?"} event=${call.eventId ?? "?"} ${sig} -> ${reply}  (POST ${call.path})`;
  const text = call.body === undefined ? call.rawBody : pretty(call.rawBody);
  return `${head}\n${text.replace(/^/gm, "    ")}\n`;
}

const { secrets, sources } = loadSecrets(process.env);
const stub = new PlatformStub();
await stub.start({
  port: Number(process.env.PLATFORM_STUB_PORT ?? 9000),
  host: process.env.PLATFORM_STUB_HOST ?? "127.0.0.1",
  secrets,
  onRecord: (call) => process.stdout.write(format(call)),
  onReturn: (path) => process.stdout.write(`${new Date().toISOString()} customer back at the merchant: GET ${path}\n`),
});

const merchants = Object.keys(secrets);
process.stdout.write(
  `platform stub listening on ${stub.url}\n` +
    `  merchants: ${merchants.length ? merchants.join(", ") : "none (every signature will be BAD)"}` +
    `${sources.length ? ` from ${sources.join(", ")}` : ""}\n` +
    `  validation_url ${stub.url}/api/validation, update_payout_url ${stub.url}/api/UpdatePayout, platform_url ${stub.url}\n` +
    `  notification_url ${stub.url}/notify, return_url ${stub.url}/return, received calls: GET ${stub.url}/events\n` +
    `  (start Cashier with CASHIER_CALLBACK_ALLOW_PRIVATE=1 so that it may call a loopback address)\n`,
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void stub.close().then(() => process.exit(0)));
}
