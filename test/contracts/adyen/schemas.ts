/**
 * Adyen's published schemas (the parts the adyen connector speaks, cut by
 * extract.ts) as ajv validators, so that the contract tests check bodies and
 * answers against Adyen's own words rather than against our reading of them.
 * Not a test file: the tests import it.
 */
import { readFileSync } from "node:fs";
import { Ajv2020 } from "ajv/dist/2020.js";
import ajvFormats from "ajv-formats";

type Json = Record<string, any>;

const read = (name: string): Json => JSON.parse(readFileSync(new URL(name, import.meta.url), "utf8"));

/** The Checkout API v71 subset: paths, components. */
export const checkoutSpec = read("./checkout-v71.json");
/** The standard notifications subset: webhooks, components. */
export const webhooksSpec = read("./webhooks-v1.json");

// ajv-formats is CommonJS: under Node's ESM loader its default import is module.exports, whose `default` is the plugin.
const addFormats = ajvFormats.default;

/**
 * OpenAPI 3.1 schemas are JSON Schema 2020-12 plus annotations (`example`,
 * `x-addedInVersion`, `deprecated`, OpenAPI 3.0's `nullable`): strict mode is
 * off so that ajv ignores the annotations, and formats (int32, int64,
 * date-time, uri) are checked.
 */
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: "checkout", components: checkoutSpec.components });
ajv.addSchema({ $id: "webhooks", components: webhooksSpec.components });

export interface Validation {
  ok: boolean;
  /** ajv's errors as "path: message", empty when ok. */
  errors: string[];
}

function validate(ref: string, value: unknown): Validation {
  const v = ajv.getSchema(ref);
  if (!v) throw new Error(`no schema ${ref}`);
  const ok = v(value) as boolean;
  return { ok, errors: (v.errors ?? []).map((e) => `${e.instancePath || "/"}: ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`) };
}

/** Validates `value` against components.schemas[name] of the Checkout API. */
export function checkCheckout(name: string, value: unknown): Validation {
  return validate(`checkout#/components/schemas/${name}`, value);
}

/** Validates a notification body against the request schema Adyen gives its event code (webhooks["/<EVENT>"]). */
export function checkNotification(eventCode: string, value: unknown): Validation {
  const ref: string = webhooksSpec.webhooks[`/${eventCode}`].post.requestBody.content["application/json"].schema.$ref;
  return validate(`webhooks${ref}`, value);
}

/** The schema name of an operation's request body or answer, as the spec's paths give it. */
export function schemaOf(path: string, what: "request" | number): string {
  const op = checkoutSpec.paths[path].post;
  const content = what === "request" ? op.requestBody.content : op.responses[String(what)].content;
  return String(content["application/json"].schema.$ref).split("/").pop()!;
}
