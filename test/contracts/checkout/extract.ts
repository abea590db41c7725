/**
 * Cuts the parts of Checkout.com's published OpenAPI specification that the
 * checkout connector speaks out of checkout/checkout-api-reference, whose
 * nas_spec keeps one YAML file per schema and per path: the payments paths
 * (request, detail, refund, actions) and every schema they and the webhook
 * event reach, copied verbatim into one JSON document (YAML -> JSON, nothing
 * else changed). Our corrections live apart, in corrections.json. Re-run it to
 * move to another commit of that repository (SOURCE.md says which and how).
 *
 *   node test/contracts/checkout/extract.ts <checkout-api-reference>/nas_spec > test/contracts/checkout/nas-spec.json
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { parse } from "yaml";

type Json = Record<string, unknown>;

/** The schemas the connector's bodies, answers and webhooks are checked against. */
const ROOTS = [
  "PaymentRequest",
  "03_PaymentRequestCardSource",
  "PayoutRequest",
  "05_PaymentRequestCurrencyAccountSource",
  "01_PaymentRequestIndividualSender",
  "02_PaymentRequestCorporateSender",
  "RefundRequest",
  "PaymentResponse",
  "PaymentAcceptedResponse",
  "PaymentDetails",
  "PayoutDetails",
  "RefundAcceptedResponse",
  "PaymentActionsResponse",
  "ValidationError",
  "get-event-response",
  "Data",
];

/** Spec path -> its file under nas_spec/paths (the repository names files with @ for /). */
const PATHS: Record<string, string> = {
  "/payments": "payments.yaml",
  "/payments/{id}": "payments@{id}.yaml",
  "/payments/{id}/refunds": "payments@{id}@refunds.yaml",
  "/payments/{id}/actions": "payments@{id}@actions.yaml",
};

const root = process.argv[2];
if (!root) throw new Error("usage: extract.ts <checkout-api-reference>/nas_spec");

/** Every schema file by its name: the spec refers to "#/components/schemas/<file name without .yaml>". */
const files = new Map<string, Json>();
(function walk(dir: string) {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) walk(p);
    else if (f.endsWith(".yaml")) files.set(basename(f, ".yaml"), parse(readFileSync(p, "utf8")) as Json);
  }
})(join(root, "components/schemas"));

const schemas: Record<string, Json> = {};
function visit(name: string): void {
  if (schemas[name]) return;
  const schema = files.get(name);
  if (!schema) throw new Error(`no schema ${name}`);
  schemas[name] = schema;
  const refs = (v: unknown): void => {
    if (Array.isArray(v)) {
      v.forEach(refs);
      return;
    }
    if (typeof v !== "object" || v === null) return;
    for (const [k, x] of Object.entries(v)) {
      if (k === "$ref" && typeof x === "string") visit(x.replace("#/components/schemas/", ""));
      // A discriminator's mapping names every subtype; only those the connector sends or reads are roots.
      else if (k !== "mapping") refs(x);
    }
  };
  refs(schema);
}
ROOTS.forEach(visit);

const paths: Record<string, Json> = {};
for (const [path, file] of Object.entries(PATHS)) {
  const doc = parse(readFileSync(join(root, "paths", file), "utf8")) as Record<string, Json>;
  for (const op of Object.values(doc)) delete op["x-code-samples"];
  paths[path] = doc;
}

const sorted = Object.fromEntries(
  Object.keys(schemas)
    .sort()
    .map((k) => [k, schemas[k]]),
);
process.stdout.write(`${JSON.stringify({ openapi: "3.0.1", paths, components: { schemas: sorted } }, null, 2)}\n`);
