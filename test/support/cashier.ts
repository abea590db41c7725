/**
 * The hosted Cashier from a platform's side, for browser tests: a merchant
 * whose platform is the test's PlatformStub and whose frontends let a test
 * parent origin frame the Cashier, and the signed `POST /api/session` that
 * starts a customer's session (built here with the test's own signer).
 */
import { SECRET } from "./merchants.ts";
import { sign, type Body } from "./wire.ts";

/** `m-cash` (auto payouts, the customer may cancel) and `m-cash-manual` (payouts wait; no cancel), framed by `parentOrigin`. */
export function cashierMerchants(stubUrl: string, parentOrigin: string) {
  const common = {
    secret: SECRET,
    site_id: 7,
    platform_url: stubUrl,
    validation_url: `${stubUrl}/api/validation`,
    update_payout_url: `${stubUrl}/api/UpdatePayout`,
    processors: ["sim-a", "sim-b"],
  };
  const frontend = {
    base_currency: "USD",
    currencies: ["USD", "EUR"],
    allowed_origins: [parentOrigin],
    deposit_presets: [1000, 2500, 5000],
    limits: { USD: { deposit_min: 500, deposit_max: 500_000, withdrawal_min: 1000, withdrawal_max: 50_000 } },
  };
  return {
    merchants: [
      { ...common, merchant_id: "m-cash", frontends: [{ ...frontend, name: "cash-usd" }] },
      {
        ...common,
        merchant_id: "m-cash-manual",
        payout_approval: "manual",
        frontends: [
          { ...frontend, name: "manual-usd", player_cancel_withdrawal: true },
          { ...frontend, name: "manual-nocancel" },
          { ...frontend, name: "manual-open", closed_loop_withdrawals: false },
        ],
      },
    ],
  };
}

let counter = 0;

/** A session start body for `m-cash`, signed. */
export function sessionBody(over: Body = {}): Body {
  counter += 1;
  return sign({
    intent: "deposit",
    merchant_id: "m-cash",
    frontend: "cash-usd",
    currency: "USD",
    pin: `cust-${process.pid}-${counter}`,
    email: "jane@example.com",
    first_name: "Jane",
    last_name: "Doe",
    country: "GB",
    return_url: "https://merchant.example/return",
    timestamp: Math.floor(Date.now() / 1000),
    version: "1.0",
    ...over,
  });
}

export interface SessionReply {
  http: number;
  body: Record<string, any>;
}

export async function startSession(edgeUrl: string, body: Body): Promise<SessionReply> {
  const res = await fetch(`${edgeUrl}/api/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { http: res.status, body: (await res.json()) as Record<string, any> };
}

export { SECRET };
