/**
 * Structured JSON logs (pino) with card and secret fields redacted wherever they
 * appear, as a second line of defence: no code path is meant to log them.
 */
import pino, { type Logger } from "pino";
import { LOG_LEVELS } from "../config/config.ts";

export const REDACT_PATHS = [
  "card_number",
  "cvv",
  "secret",
  "signature",
  "card",
  "password",
  "authorization",
  "auth_token",
  "*.card_number",
  "*.cvv",
  "*.secret",
  "*.signature",
  "*.card",
  "*.password",
  "*.authorization",
  "*.auth_token",
];

export type { Logger };

/**
 * The logger exists before the settings are read, so that a bad setting can be
 * reported: an unknown level logs at info here, and loadConfig refuses it.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level: LOG_LEVELS.has(level) ? level : "info",
      base: { service: "cashier" },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}
