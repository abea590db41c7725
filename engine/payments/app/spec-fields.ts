/**
 * The field checks every part of a merchant's settings shares (the merchants
 * file, AdminService): a non-empty string without control characters, and an
 * http(s) URL without a user name or password, each fault named by its path.
 */
import { CONTROL_CHARACTERS } from "../../shared/control-characters.ts";
import { MerchantsFileError } from "./merchant-errors.ts";

/** `obj[key]` as a non-empty string without control characters; undefined when absent and not required. */
export function str(obj: Record<string, unknown>, key: string, where: string, required: boolean): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) {
    if (required) throw new MerchantsFileError(`${where}.${key}`, `is required`);
    return undefined;
  }
  if (typeof v !== "string" || v.trim() === "") throw new MerchantsFileError(`${where}.${key}`, `must be a non-empty string`);
  if (CONTROL_CHARACTERS.test(v)) throw new MerchantsFileError(`${where}.${key}`, `must not contain control characters`);
  return v;
}

/** An address is sent on every call and shown to operators: a few kilobytes is no address. */
const MAX_URL = 2048;

/** `obj[key]` as an http(s) URL without a user name or password; null when absent. */
export function url(obj: Record<string, unknown>, key: string, where: string): string | null {
  const v = str(obj, key, where, false);
  if (v === undefined) return null;
  // A callback address is sent on every call and shown to operators: a few kilobytes is no address.
  if ([...v].length > MAX_URL) throw new MerchantsFileError(`${where}.${key}`, `must be at most ${MAX_URL} characters`);
  let u: URL;
  try {
    u = new URL(v);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error();
  } catch {
    throw new MerchantsFileError(`${where}.${key}`, `must be an http(s) URL`);
  }
  // A password in it would be kept in clear and shown with the address to every operator, viewers included; the
  // platform knows a callback is Cashier's by its signature (X-Cashier-Signature, or the body's signature).
  if (u.username !== "" || u.password !== "")
    throw new MerchantsFileError(`${where}.${key}`, "must not carry a user name or password: every callback is signed instead");
  return v;
}
