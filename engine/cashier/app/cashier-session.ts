/**
 * The hosted Cashier's browser session: the one-time autologin that opens it
 * (atomic: of two redemptions one wins), the session token that names it on
 * every later call, and the session as the pages show it. An unknown, used or
 * expired autologin is AUTOLOGIN_UNUSABLE and says nothing more; an unknown or
 * ended session is SESSION_ENDED. An unused one opened in a frame its
 * frontend does not allow is NOT_ALLOWED_BY_FRONTEND and stays unused (which
 * tells whoever holds the link that it is unused: the edge rations that
 * answer like a guess).
 */
import { domainError, type DomainError } from "../../shared/errors.ts";
import type { CashierFrontendView } from "../domain/hosted-session.ts";
import type { Attempt } from "../../shared/transaction.ts";
import { newSessionToken, TOKEN_SHAPE, tokenHash } from "../../shared/session-tokens.ts";
import type { CashierDeps, SavedCardRecord, SessionRecord } from "../ports/ports.ts";
import type { Merchant } from "../../payments/index.ts";

/** A live session with its merchant and frontend, as every form's use case starts from. */
export interface OpenSession {
  session: SessionRecord;
  merchant: Merchant;
  frontend: CashierFrontendView;
}

export interface SessionView extends OpenSession {
  /** Offered saved cards, `withdrawable` by the closed-loop rule (or always when the frontend turns it off). */
  savedCards: (SavedCardRecord & { withdrawable: boolean })[];
  /** A withdrawal session's: the customer's payouts not final yet (empty in a deposit session). */
  pendingWithdrawals: Attempt[];
  transactions: Attempt[];
}

export const AUTOLOGIN_UNUSABLE = domainError("AUTOLOGIN_UNUSABLE", "This Cashier link cannot be used: it was already opened or has expired.");
export const SESSION_ENDED = domainError("SESSION_ENDED", "The Cashier session has ended.");

type Opened = { ok: true; open: OpenSession } | { ok: false; error: DomainError };

async function withMerchant(deps: CashierDeps, session: SessionRecord | undefined, refusal: DomainError): Promise<Opened> {
  if (!session) return { ok: false, error: refusal };
  const merchant = await deps.merchants.get(session.merchantId);
  const frontend = merchant?.frontends.find((f) => f.name === session.frontend);
  // A frontend removed since the start ends its sessions.
  if (!merchant || !frontend) return { ok: false, error: refusal };
  return { ok: true, open: { session, merchant, frontend } };
}

/** The live session a browser session token names. */
export async function openSession(deps: CashierDeps, sessionToken: string): Promise<Opened> {
  if (!TOKEN_SHAPE.test(sessionToken)) return { ok: false, error: SESSION_ENDED };
  const session = await deps.sessions.bySessionHash(tokenHash(deps.keys.tokenHash, "session", sessionToken), deps.now());
  return withMerchant(deps, session, SESSION_ENDED);
}

export const FRAMED_ELSEWHERE = domainError(
  "NOT_ALLOWED_BY_FRONTEND",
  "This Cashier cannot be shown in a frame of this site (the frontend's allowed_origins); the link was not used and still opens in its own window.",
);

/**
 * How the browser loads the autologin address: in a frame or not (its Sec-Fetch-Dest), and the framing page's
 * origin when the browser told it (its Referer), "" when it did not.
 */
export interface AutologinFrame {
  framed: boolean;
  ancestor: string;
}

/**
 * A frame the frontend does not allow would never show the Cashier (its pages' frame-ancestors), yet opening the
 * link there would use it up: such a request is refused and leaves the link unused. Without a told origin only an
 * empty allowed_origins can be judged.
 */
async function refusedFrame(deps: CashierDeps, autologinHash: string, frame: AutologinFrame | undefined): Promise<boolean> {
  if (!frame?.framed) return false;
  const pending = await deps.sessions.byUnusedAutologin(autologinHash, deps.now());
  const opened = await withMerchant(deps, pending, AUTOLOGIN_UNUSABLE);
  if (!opened.ok) return false;
  const allowed = opened.open.frontend.settings.allowedOrigins;
  return allowed.length === 0 || (frame.ancestor !== "" && !allowed.includes(frame.ancestor));
}

/** Uses an autologin token once: a new browser session token, valid until the session's end. */
export async function redeemAutologin(
  deps: CashierDeps,
  autologin: string,
  frame?: AutologinFrame,
): Promise<{ ok: true; sessionToken: string; open: OpenSession } | { ok: false; error: DomainError }> {
  if (!TOKEN_SHAPE.test(autologin)) return { ok: false, error: AUTOLOGIN_UNUSABLE };
  const autologinHash = tokenHash(deps.keys.tokenHash, "autologin", autologin);
  if (await refusedFrame(deps, autologinHash, frame)) return { ok: false, error: FRAMED_ELSEWHERE };
  const sessionToken = newSessionToken();
  const session = await deps.sessions.redeem(autologinHash, tokenHash(deps.keys.tokenHash, "session", sessionToken), deps.now());
  const opened = await withMerchant(deps, session, AUTOLOGIN_UNUSABLE);
  return opened.ok ? { ok: true, sessionToken, open: opened.open } : opened;
}

/** The session as the pages show it. */
export async function sessionView(deps: CashierDeps, open: OpenSession): Promise<SessionView> {
  const { session } = open;
  const { closedLoopWithdrawals: closedLoop, saveCards } = open.frontend.settings;
  // Only the withdrawal page lists the customer's pending withdrawals: a deposit session's view has none. A frontend
  // that keeps no cards (save_cards false) offers none either, not even those kept at another frontend of the merchant.
  const [cards, pendingWithdrawals, transactions] = await Promise.all([
    saveCards ? deps.sessions.savedCards(session.merchantId, session.pin) : [],
    session.intent === "withdrawal" ? deps.sessions.pendingWithdrawals(session.merchantId, session.frontend, session.pin) : [],
    deps.sessions.sessionTransactions(session.id),
  ]);
  return {
    ...open,
    savedCards: cards.map((c) => ({ ...c, withdrawable: !closedLoop || c.depositedFrom })),
    pendingWithdrawals,
    transactions,
  };
}
