/**
 * The console's own wording of the engine's password rules: the engine names
 * the rule a refused password breaks (errors.proto's FieldViolation.rule) and
 * the console says it in the operator's language. A rule it does not know is
 * shown with the engine's own description.
 */
import { PASSWORD_MAX, PASSWORD_MIN } from "../../engine/shared/password-limits.ts";
import type { ConsoleKey, ConsoleTranslator } from "./i18n.ts";

/** The password rules' lengths the pages show: the engine's own (it enforces them). */
export const MIN_PASSWORD_LENGTH = PASSWORD_MIN;
export const MAX_PASSWORD_LENGTH = PASSWORD_MAX;

const WORDING: Readonly<Record<string, ConsoleKey>> = {
  "password.too_short": "bo.password.rule.tooShort",
  "password.too_long": "bo.password.rule.tooLong",
  "password.breached": "bo.password.rule.breached",
  "password.has_login": "bo.password.rule.hasLogin",
  "password.few_characters": "bo.password.rule.fewCharacters",
  "password.guessable": "bo.password.rule.guessable",
  "password.unchanged": "bo.password.rule.unchanged",
};

/** What the operator reads of a refused password: the rule in their language, or the engine's description. */
export function passwordRefusal(t: ConsoleTranslator["t"], v: { rule?: string; description: string }): string | undefined {
  const key = v.rule ? WORDING[v.rule] : undefined;
  return key ? t(key, { min: MIN_PASSWORD_LENGTH, max: MAX_PASSWORD_LENGTH }) : undefined;
}
