/**
 * Structured JSON logs (pino) with card and secret fields redacted wherever they
 * appear, as a second line of defence: no code path is meant to log them.
 */
import pino, { type Logger } from "pino";

export const REDACT_PATHS = [
  "card_number", "cvv", "secret", "signature", "card", "password", "authorization", "auth_token",
  "*.card_number", "*.cvv", "*.secret", "*.signature", "*.card", "*.password", "*.authorization", "*.auth_token",
];

export type { Logger };

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "cashier" },
      redact: { paths: REDACT_PATHS, censor: "[redacted]" },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}
