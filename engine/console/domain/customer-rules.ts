/**
 * What an operator may write on a customer's page (docs/backoffice-operations.md, The customer; Blocks): a note
 * of 1 to 1000 characters and a block's or lift's reason of 3 to 500, neither with a control character nor a card
 * number (CONTRACT 8: no card number is kept outside the sealed columns); an e-mail to block as an address; a BIN
 * as 6 or 8 digits. Each rule answers the field at fault and why, or nothing.
 */
import { CONTROL_CHARACTERS } from "../../shared/control-characters.ts";
import { cardNumberIn } from "../../shared/card-number-in-text.ts";
import { BIN_PATTERN, normalEmail } from "../../payments/index.ts";

/** A field at fault and why, in the console's words. */
export interface TextFault {
  field: string;
  description: string;
}

export const NOTE_MAX = 1000;
export const REASON_MIN = 3;
export const REASON_MAX = 500;
/** An e-mail as Process takes one is at most this long (validate-process.ts): a longer one could never match. */
export const EMAIL_MAX = 50;

/** Free text an operator writes: bounded, printable, and never a card number. */
export function freeTextFault(field: string, text: string, min: number, max: number): TextFault | undefined {
  const length = [...text.trim()].length;
  if (length < min) return { field, description: min === 1 ? "is required" : `must be at least ${min} characters` };
  if ([...text].length > max) return { field, description: `must be at most ${max} characters` };
  if (CONTROL_CHARACTERS.test(text.replace(/\r?\n/g, " "))) return { field, description: "must not contain control characters" };
  if (cardNumberIn(text) !== undefined) return { field, description: "must not hold a card number" };
  return undefined;
}

/** The note's fault, if any. */
export const noteFault = (text: string) => freeTextFault("text", text, 1, NOTE_MAX);

/** A block's or a lift's reason's fault, if any. */
export const reasonFault = (reason: string) => freeTextFault("reason", reason, REASON_MIN, REASON_MAX);

/** An e-mail to block, as blocks compare it, or its fault. */
export function emailToBlock(value: string): { value: string } | TextFault {
  const email = normalEmail(value);
  if (email === "") return { field: "value", description: "is required: the e-mail address to block" };
  if (email.length > EMAIL_MAX || CONTROL_CHARACTERS.test(email) || !/^[^@\s]+@[^@\s]+$/.test(email))
    return { field: "value", description: "must be an e-mail address" };
  return { value: email };
}

/** A BIN to block, or its fault. */
export function binToBlock(value: string): { value: string } | TextFault {
  const bin = value.trim();
  if (!BIN_PATTERN.test(bin)) return { field: "value", description: "must be the first 6 or 8 digits of a card number" };
  return { value: bin };
}
