/**
 * Checkout.com's published schemas (the parts the checkout connector speaks,
 * cut verbatim by extract.ts into nas-spec.json) with our corrections applied
 * (corrections.json: where today's API and SDKs differ from the 2021
 * specification, each with its evidence), as ajv validators. The contract tests
 * check bodies and answers against Checkout's own words, and that a body names
 * no member Checkout's schema does not. Not a test file: the tests import it.
 */
import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";

type Json = Record<string, any>;

const read = (name: string): any => JSON.parse(readFileSync(new URL(name, import.meta.url), "utf8"));

export interface Correction {
  op: "add" | "replace" | "remove";
  /** A JSON Pointer into nas-spec.json. */
  path: string;
  value?: unknown;
  why: string;
  evidence: string;
}

/** The corrections, in the order they are applied. */
export const corrections: Correction[] = read("./corrections.json");

const pointerToken = (token: string) => token.replaceAll("~1", "/").replaceAll("~0", "~");

/** Applies one correction; throws when its target is not where it says (a spec moved on: re-read the evidence). */
function apply(doc: Json, c: Correction): void {
  const tokens = c.path.split("/").slice(1).map(pointerToken);
  const last = tokens.pop()!;
  let at: Json = doc;
  for (const t of tokens) {
    if (typeof at[t] !== "object" || at[t] === null) throw new Error(`correction ${c.path}: no ${t}`);
    at = at[t];
  }
  const exists = Object.hasOwn(at, last);
  if (c.op === "add" && exists) throw new Error(`correction ${c.path}: already there`);
  if (c.op !== "add" && !exists) throw new Error(`correction ${c.path}: nothing to ${c.op}`);
  if (c.op === "remove") delete at[last];
  else at[last] = structuredClone(c.value);
}

/** The 2021 specification as published. */
export const published: Json = read("./nas-spec.json");

/** The specification the tests check against: the published one, corrected. */
export const spec: Json = structuredClone(published);
for (const c of corrections) apply(spec, c);

// ajv-formats is CommonJS: its default export arrives as the module object under Node's ESM loader, and its
// declarations type that object, not the function.
type AddFormats = (ajv: Ajv) => Ajv;
const formatsModule = addFormatsModule as unknown as AddFormats & { default?: AddFormats };
const addFormats: AddFormats = formatsModule.default ?? formatsModule;

/**
 * OpenAPI 3.0 schemas are a JSON Schema dialect plus annotations (`example`,
 * `readOnly`, `discriminator`): strict mode is off so that ajv ignores the
 * annotations, and formats (date-time, email, uri, ipv4) are checked.
 */
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: "cko", components: spec.components });

export interface Validation {
  ok: boolean;
  /** ajv's errors as "path: message", empty when ok. */
  errors: string[];
}

/** Validates `value` against components.schemas[name]. */
export function check(name: string, value: unknown): Validation {
  const v = ajv.getSchema(`cko#/components/schemas/${name}`);
  if (!v) throw new Error(`no schema ${name}`);
  const ok = v(value) as boolean;
  return { ok, errors: (v.errors ?? []).map((e) => `${e.instancePath || "/"}: ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ""}`) };
}

const schemaNamed = (ref: string): Json => {
  const s = spec.components.schemas[ref.replace("#/components/schemas/", "")];
  if (!s) throw new Error(`no schema ${ref}`);
  return s;
};

/** The properties a schema names, through its $ref and allOf; undefined when it names none (any member is allowed). */
function propertiesOf(schema: Json): Record<string, Json> | undefined {
  const s = schema.$ref ? schemaNamed(schema.$ref) : schema;
  let props: Record<string, Json> | undefined = s.properties ? { ...s.properties } : undefined;
  for (const part of s.allOf ?? []) {
    const more = propertiesOf(part);
    if (more) props = { ...(props ?? {}), ...more };
  }
  return props;
}

/** The schema a value is checked against: a discriminator's subtype when the value names one ("type": "card"). */
function concrete(schema: Json, value: Json): Json {
  const s = schema.$ref ? schemaNamed(schema.$ref) : schema;
  const d = s.discriminator;
  const mapped = d?.mapping?.[value[d.propertyName]];
  return mapped ? schemaNamed(mapped) : s;
}

/**
 * The members of `value` that its schema does not name, as paths ("/source/nmber"),
 * following discriminators: the spec allows additional properties, so ajv alone
 * would pass a misspelt member.
 */
export function unknownMembers(name: string, value: unknown): string[] {
  const walk = (v: unknown, schema: Json, at: string): string[] => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return [];
    const props = propertiesOf(concrete(schema, v as Json));
    if (!props) return [];
    return Object.entries(v).flatMap(([k, x]) => (Object.hasOwn(props, k) ? walk(x, props[k], `${at}/${k}`) : [`${at}/${k}`]));
  };
  return walk(value, schemaNamed(name), "");
}
