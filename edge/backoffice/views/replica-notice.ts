/**
 * The notice a page read from the engine's read replica shows when its
 * figures may be behind: the search, the dashboard (and, as a closing line,
 * the CSV export). A replica a few seconds behind is normal and says
 * nothing; past REPLICA_NOTICE_MS an operator looking for a sale made a
 * moment ago is told why it may not be there yet, and by how much.
 */
import { type Html, html } from "../../pages/kit/html.ts";
import type { ConsoleTranslator } from "../i18n.ts";

/** Lag (ms) above which a page says its figures may be behind: 5 s. */
export const REPLICA_NOTICE_MS = 5000;

/** Where a read ran, as the engine's answers carry it (ReadSource). */
export interface ReadSourceView {
  replica: boolean;
  lagMs: bigint | number;
}

/** The whole seconds the figures may be behind, when that is worth saying; undefined otherwise. */
export function secondsBehind(source: ReadSourceView | undefined): number | undefined {
  if (!source?.replica) return undefined;
  const ms = Number(source.lagMs);
  return ms > REPLICA_NOTICE_MS ? Math.ceil(ms / 1000) : undefined;
}

/** The notice, or nothing. */
export function replicaNotice(tr: ConsoleTranslator, source: ReadSourceView | undefined): Html {
  const seconds = secondsBehind(source);
  if (seconds === undefined) return html``;
  return html`<div class="notice info" role="status" id="replica-lag">${tr.t("bo.replica.behind", { seconds })}</div>`;
}
