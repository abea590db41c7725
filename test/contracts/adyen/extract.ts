/**
 * Cuts the parts of Adyen's published OpenAPI specifications that the adyen
 * connector speaks out of the whole files (CheckoutService-v71.json is ~900 KB,
 * Webhooks-v1.json ~440 KB), so that the contract tests validate against
 * Adyen's own schemas, copied verbatim: the three operations, every schema,
 * header, parameter and example they reach, and the standard notifications.
 * Re-run it to move to a newer commit of Adyen/adyen-openapi (SOURCE.md says how).
 *
 *   node test/contracts/adyen/extract.ts <CheckoutService-v71.json> <Webhooks-v1.json>
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

type Json = Record<string, unknown>;

/** The Checkout API operations the connector calls. */
const OPERATIONS = ["/payments", "/payments/details", "/payments/{paymentPspReference}/refunds"];

/** The standard notifications the connector reads (webhooks.ts), each with its own request schema. */
const EVENTS = ["/AUTHORISATION", "/CANCELLATION", "/CAPTURE", "/CAPTURE_FAILED", "/OFFER_CLOSED", "/REFUND", "/REFUND_FAILED", "/REFUNDED_REVERSED"];

/** Every component a value refers to ("#/components/<kind>/<name>"), followed transitively. */
function closure(spec: Json, roots: unknown[]): Map<string, Set<string>> {
  const components = spec.components as Record<string, Json>;
  const seen = new Map<string, Set<string>>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const v of value) walk(v);
      return;
    }
    if (typeof value !== "object" || value === null) return;
    for (const [key, v] of Object.entries(value)) {
      if (key === "$ref" && typeof v === "string" && v.startsWith("#/components/")) {
        const [, , kind, name] = v.split("/");
        const names = seen.get(kind) ?? seen.set(kind, new Set()).get(kind)!;
        if (names.has(name)) continue;
        names.add(name);
        walk(components[kind][name]);
      } else walk(v);
    }
  };
  for (const root of roots) walk(root);
  return seen;
}

/** The components `seen` names, in the spec's own order, verbatim. */
function pick(spec: Json, seen: Map<string, Set<string>>, extra: Record<string, string[]> = {}): Json {
  const components = spec.components as Record<string, Json>;
  const out: Json = {};
  for (const kind of Object.keys(components)) {
    const names = new Set([...(seen.get(kind) ?? []), ...(extra[kind] ?? [])]);
    const kept = Object.entries(components[kind]).filter(([name]) => names.has(name));
    if (kept.length > 0) out[kind] = Object.fromEntries(kept);
  }
  return out;
}

const [checkoutPath, webhooksPath] = process.argv.slice(2);
if (!checkoutPath || !webhooksPath) throw new Error("usage: node extract.ts <CheckoutService-v71.json> <Webhooks-v1.json>");

const checkout = JSON.parse(readFileSync(checkoutPath, "utf8")) as Json;
const paths = Object.fromEntries(OPERATIONS.map((p) => [p, (checkout.paths as Json)[p]]));
const checkoutOut = {
  openapi: checkout.openapi,
  info: checkout.info,
  servers: checkout.servers,
  paths,
  components: pick(checkout, closure(checkout, [paths]), { securitySchemes: ["ApiKeyAuth", "BasicAuth"] }),
};

const webhooks = JSON.parse(readFileSync(webhooksPath, "utf8")) as Json;
const events = Object.fromEntries(EVENTS.map((e) => [e, (webhooks.webhooks as Json)[e]]));
const generic = { $ref: "#/components/schemas/NotificationRequest" };
const webhooksOut = {
  openapi: webhooks.openapi,
  info: webhooks.info,
  webhooks: events,
  components: pick(webhooks, closure(webhooks, [events, generic]), { securitySchemes: ["ApiKeyAuth", "BasicAuth"] }),
};

const write = (name: string, value: unknown) => writeFileSync(join(import.meta.dirname, name), `${JSON.stringify(value, null, 2)}\n`);
write("checkout-v71.json", checkoutOut);
write("webhooks-v1.json", webhooksOut);
