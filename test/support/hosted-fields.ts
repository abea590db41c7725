/**
 * The hosted payment fields (CONTRACT 12) from a platform's side and a
 * browser without scripts: merchants whose frontends let a test origin frame
 * the fields, the signed `intent: fields` session start, and the page's form
 * filled and posted over plain HTTP, read back as the page shows it.
 */
import { SECRET } from "./merchants.ts";
import { sign, type Body } from "./wire.ts";

/** `m-fields` with two frontends (`fields-usd`, `fields-eur`), framed by `parentOrigins`; its platform at `stubUrl`. */
export function fieldsMerchants(stubUrl: string, parentOrigins: string | string[]) {
  const allowed = Array.isArray(parentOrigins) ? parentOrigins : [parentOrigins];
  const common = { secret: SECRET, site_id: 11, platform_url: stubUrl, processors: ["sim-a", "sim-b"] };
  return {
    merchants: [
      {
        ...common,
        merchant_id: "m-fields",
        frontends: [
          { name: "fields-usd", base_currency: "USD", currencies: ["USD"], allowed_origins: allowed },
          { name: "fields-eur", base_currency: "EUR", currencies: ["EUR", "USD"], allowed_origins: allowed },
        ],
      },
      { ...common, merchant_id: "m-fields-other", frontends: [{ name: "other-usd", base_currency: "USD", allowed_origins: allowed }] },
    ],
  };
}

/** A fields session start, signed: only the members CONTRACT 12 names. */
export function fieldsSessionBody(over: Body = {}, now = Date.now()): Body {
  return sign({
    intent: "fields",
    merchant_id: "m-fields",
    frontend: "fields-usd",
    pin: "cust-fields-1",
    currency: "USD",
    timestamp: Math.floor(now / 1000),
    version: "1.0",
    ...over,
  });
}

export async function postJson(url: string, body: unknown): Promise<{ http: number; body: Record<string, any>; text: string }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await res.text();
  let parsed: Record<string, any> = {};
  try {
    parsed = JSON.parse(text);
  } catch {}
  return { http: res.status, body: parsed, text };
}

/** An HTML attribute's value as the page escaped it, unescaped. */
const attributeText = (v: string) => v.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));

/** Follows the autologin address to the fields page: its path and form's hidden fields, and the page. */
export async function openFields(edgeUrl: string, redirectUrl: string) {
  const res = await fetch(redirectUrl, { redirect: "manual" });
  const path = res.headers.get("location") ?? "";
  const page = await fetch(edgeUrl + path);
  const html = await page.text();
  return {
    path,
    http: page.status,
    headers: page.headers,
    html,
    session: /name="session_token" value="([^"]+)"/.exec(html)?.[1] ?? "",
    csrf: /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? "",
  };
}

export interface CardTyped {
  card_number: string;
  card_exp: string;
  cvv: string;
  holder: string;
}

export const TEST_CARD: CardTyped = { card_number: "4111 1111 1111 1111", card_exp: "12/30", cvv: "737", holder: "Jane Doe" };

/** Posts the fields form as a browser without scripts would: the answer's status, page, and the minted card event if any. */
export async function submitFields(edgeUrl: string, opened: { path: string; session: string; csrf: string }, card: Partial<CardTyped> = {}) {
  const path = opened.path.split("?")[0];
  const query = opened.path.includes("?") ? `?${opened.path.split("?")[1]}` : "";
  const res = await fetch(edgeUrl + path + query, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ session_token: opened.session, csrf_token: opened.csrf, ...TEST_CARD, ...card }).toString(),
  });
  const html = await res.text();
  const minted = /data-fields-token="([^"]+)"/.exec(html)?.[1];
  const refused = /data-fields-error="([^"]+)"/.exec(html)?.[1];
  return {
    http: res.status,
    html,
    minted: minted ? (JSON.parse(attributeText(minted)) as { card_token: string; brand: string; masked: string; expiry: string }) : undefined,
    refused: refused ? (JSON.parse(attributeText(refused)) as { code: string; message: string; fields: string[] }) : undefined,
  };
}

/** Starts a fields session and takes `card` in its page: the minted token's event. */
export async function mintToken(edgeUrl: string, over: Body = {}, card: Partial<CardTyped> = {}, now = Date.now()) {
  const started = await postJson(`${edgeUrl}/api/session`, fieldsSessionBody(over, now));
  if (started.http !== 200) throw new Error(`fields session: ${started.text}`);
  const opened = await openFields(edgeUrl, started.body.redirect_url);
  const sent = await submitFields(edgeUrl, opened, card);
  if (!sent.minted) throw new Error(`no token minted: ${sent.http} ${sent.html.slice(0, 400)}`);
  return sent.minted;
}
