/**
 * The processor account form, decoded: its settings as one field each (`setting:<name>`, dotted names for nested
 * members such as payout_sender.city) and free name/value pairs, its credentials as `credential:<name>` (blank is
 * "keep", so only typed ones are sent), and the engine's refusal of it turned back into the inputs it names. What a
 * setting or credential may be is the connector's schema's to say, in the engine.
 */
import type { JsonObject } from "@bufbuild/protobuf";
import type { FieldError } from "../../pages/kit/components.ts";
import type { ConsoleRefusal } from "../refusal.ts";
import { type AccountFormValues, credentialId, EXTRA_SETTINGS, settingId } from "../views/processor-accounts.ts";

/** Sets `value` at a dotted path of `into`, as own data members (a name such as __proto__ is a member like any other). */
function setPath(into: Record<string, unknown>, path: string, value: string): void {
  const keys = path.split(".");
  let at = into;
  for (const [i, key] of keys.entries()) {
    if (i === keys.length - 1) {
      Object.defineProperty(at, key, { value, enumerable: true, writable: true, configurable: true });
      return;
    }
    const next = Object.hasOwn(at, key) ? at[key] : undefined;
    const child = typeof next === "object" && next !== null ? (next as Record<string, unknown>) : {};
    Object.defineProperty(at, key, { value: child, enumerable: true, writable: true, configurable: true });
    at = child;
  }
}

/** The settings the form lists and the free pairs, as typed (blank values kept, so a refused form shows them again). */
export function typedSettings(form: URLSearchParams): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of form) if (key.startsWith("setting:")) out.push([key.slice("setting:".length), value.trim()]);
  for (let i = 1; i <= EXTRA_SETTINGS; i++) {
    const name = (form.get(`extra_name_${i}`) ?? "").trim();
    if (name) out.push([name, (form.get(`extra_value_${i}`) ?? "").trim()]);
  }
  return out;
}

/** The form's account: name, url, enabled and the settings as typed. */
export function accountValues(form: URLSearchParams): AccountFormValues {
  return { name: (form.get("name") ?? "").trim(), url: (form.get("url") ?? "").trim(), enabled: form.get("enabled") === "1", settings: typedSettings(form) };
}

/** The settings object the engine checks: a blank value leaves its setting out. */
export function settingsObject(settings: readonly (readonly [string, string])[]): JsonObject {
  const out: Record<string, unknown> = {};
  for (const [name, value] of settings) if (value !== "") setPath(out, name, value);
  return out as JsonObject;
}

/** The credentials typed; a blank one is not sent, so the engine keeps the stored value. */
export function typedCredentials(form: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of form) if (key.startsWith("credential:") && value !== "") out[key.slice("credential:".length)] = value;
  return out;
}

/** A stored account's settings as the form's dotted pairs (a value that is not a string shown as its JSON). */
export function flatSettings(settings: JsonObject | undefined, prefix = ""): [string, string][] {
  const out: [string, string][] = [];
  for (const [key, value] of Object.entries(settings ?? {})) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "object" && value !== null && !Array.isArray(value)) out.push(...flatSettings(value as JsonObject, name));
    else out.push([name, typeof value === "string" ? value : JSON.stringify(value)]);
  }
  return out;
}

/** The input an engine field names (account.settings.x, credentials.y, account.endpoint_url), or undefined. */
export function inputOf(field: string): string | undefined {
  if (field.startsWith("account.settings.")) return settingId(field.slice("account.settings.".length));
  if (field.startsWith("credentials.")) return credentialId(field.slice("credentials.".length));
  if (field === "account.endpoint_url") return "account-url";
  if (field === "account.processor") return "account-name";
  return undefined;
}

/** A refusal for the form's fields as errors beside its inputs. */
export function accountErrors(r: ConsoleRefusal): FieldError[] {
  if (r.kind !== "invalid") return [];
  return r.violations.flatMap((v) => {
    const id = inputOf(v.field);
    return id ? [{ field: id, message: v.description }] : [];
  });
}
