/** The console's forms: url-encoded, at most 16 KiB (a WebAuthn reply, a bulk selection of 100 payouts). */
import type { Context } from "koa";
import { type FormResult, readFormUpTo } from "../../middleware/form-body.ts";

export const MAX_CONSOLE_FORM_BYTES = 16 * 1024;

export function readConsoleForm(ctx: Context): Promise<FormResult> {
  return readFormUpTo(ctx, MAX_CONSOLE_FORM_BYTES);
}
