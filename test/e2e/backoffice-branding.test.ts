/**
 * A frontend's Branding section over the Backoffice's own HTTP pages, against the running service (docs/backoffice.md,
 * Branding): an admin posts the multipart form with a PNG and sees the preview as the engine answered it (the header
 * with the draft's name and logo, each pair's ratio), the logo served by the Backoffice's own route; a refused draft
 * shows the engine's words beside its field; Save names the previewed logo by its hash, is audited, and the hosted
 * Cashier's page of that frontend shows the logo; Remove logo drops it. A body without a boundary, over the bound or
 * with two files is a 400 page naming why; a form without its CSRF token is 403; a viewer and a support operator are
 * refused by the engine and nothing changes.
 */
import { createHash } from "node:crypto";
import t from "tap";
import { type ConsoleClient, enrolOperators, startConsole } from "../support/backoffice.ts";
import { postSession, sessionBody } from "../support/cashier-session.ts";
import { SECRET } from "../support/merchants.ts";
import { solidPng } from "../support/png.ts";
import { useService } from "../support/service.ts";

const svc = useService(
  t,
  {},
  { merchants: { merchants: [{ merchant_id: "m-brand", secret: SECRET, frontends: [{ name: "brand-usd", base_currency: "USD" }] }] } },
);
const PAGE = "/merchants/m-brand/frontends/brand-usd";
const POST = `${PAGE}/branding`;
const LOGO = solidPng(96, 32, "#ffd60a");
const SHA = createHash("sha256").update(LOGO).digest("hex");

let base = "";
let close: () => Promise<void> = async () => {};
let ops: Map<string, ConsoleClient>;
const as = (login: string) => ops.get(login)!;

t.before(async () => {
  const bo = await startConsole(svc());
  base = bo.url;
  close = () => bo.close();
  ops = await enrolOperators(svc(), bo.url, [
    ["bea", "admin"],
    ["vic", "viewer"],
    ["sam", "support"],
  ]);
});
t.teardown(() => close());

const cookieOf = (c: ConsoleClient) => [...c.cookies].map(([k, v]) => `${k}=${v}`).join("; ");

/** Posts the branding form as a browser does (multipart, the page's CSRF token unless `csrf` is given). */
async function postBranding(
  c: ConsoleClient,
  fields: Record<string, string>,
  files: [string, Buffer, string][] = [],
  csrf?: string,
): Promise<{ status: number; body: string; location: string | null }> {
  const page = await c.get(PAGE);
  const form = new FormData();
  form.append("csrf_token", csrf ?? /name="csrf_token" value="([^"]+)"/.exec(page.body)?.[1] ?? "");
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [name, bytes, filename] of files) form.append(name, new Blob([new Uint8Array(bytes)], { type: "image/png" }), filename);
  const res = await fetch(`${base}${POST}`, { method: "POST", headers: { cookie: cookieOf(c) }, body: form, redirect: "manual" });
  return { status: res.status, body: await res.text(), location: res.headers.get("location") };
}

const draft = { display_name: "Lucky Star", primary_color: "#FFD60A", background_color: "#fffdf5", text_color: "", corner_style: "pill", logo_sha256: "" };
const stored = async () => (await svc().admin.getMerchant({ merchantId: "m-brand" })).merchant!.frontends[0].branding;
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .replace(/&#39;/g, "'");

/** The hosted Cashier's page of a session of brand-usd. */
async function hostedPage(): Promise<string> {
  const started = await postSession(svc().edgeUrl, sessionBody({ merchant_id: "m-brand", frontend: "brand-usd", pin: `brand-${Date.now()}` }));
  if (started.http !== 200) throw new Error(`session start: ${started.text}`);
  return (await fetch(started.body.redirect_url as string)).text();
}

t.test("an admin previews a draft with a logo, sees the engine's ratios and the logo from the Backoffice, then saves it", async (t) => {
  const before = await as("bea").get(PAGE);
  t.equal(before.status, 200);
  t.match(text(before.body), "Not branded: the hosted Cashier shows its own look");
  t.match(before.body, 'enctype="multipart/form-data"');

  const preview = await postBranding(as("bea"), { ...draft, do: "preview" }, [["logo_png", LOGO, "logo.png"]]);
  t.equal(preview.status, 200, text(preview.body).slice(0, 300));
  const shown = text(preview.body);
  t.match(shown, "Preview only: nothing is saved yet.");
  t.match(preview.body, `<img class="merchant-logo" src="/logos/${SHA}.png" alt="Lucky Star" id="brand-draft-logo">`, "the header as the hosted page draws it");
  const table = /id="brand-contrasts"[\s\S]*?<\/table>/.exec(preview.body)?.[0] ?? "";
  t.match(
    text(table),
    /Text on the background #1d2330 \/ #fffdf5 15\.44:1 Passes Button text on the primary colour #1d2330 \/ #ffd60a \d+\.\d\d:1 Passes Approval message on the background \S+ \/ #fffdf5 \d+\.\d\d:1 Passes Refusal message on the background \S+ \/ #fffdf5 \d+\.\d\d:1 Passes/,
    "each pair with the engine's colours and ratio",
  );
  t.match(
    preview.body,
    /#brand-draft\{--brand-paper:#fffdf5;--brand-ink:#1d2330;--brand-primary:#ffd60a;--brand-on-primary:#1d2330\}/,
    "the draft's colours as the engine gave them",
  );
  t.match(preview.body, `<input type="hidden" name="logo_sha256" value="${SHA}">`, "the previewed logo's hash rides to the save");
  t.equal(await stored(), undefined, "a preview changes no frontend");

  const logo = await fetch(`${base}/logos/${SHA}.png`, { headers: { cookie: cookieOf(as("bea")) } });
  t.equal(logo.status, 200);
  t.same(
    [logo.headers.get("content-type"), logo.headers.get("cache-control"), logo.headers.get("x-content-type-options")],
    ["image/png", "public, max-age=31536000, immutable", "nosniff"],
    "the hosted Cashier's headers",
  );
  t.ok(Buffer.from(await logo.arrayBuffer()).equals(LOGO), "exactly the uploaded bytes");
  const unknown = await fetch(`${base}/logos/${"0".repeat(64)}.png`, { headers: { cookie: cookieOf(as("vic")) } });
  t.equal(unknown.status, 404, "an unknown logo");
  await unknown.arrayBuffer();
  const anonymous = await fetch(`${base}/logos/${SHA}.png`, { redirect: "manual" });
  t.same([anonymous.status, anonymous.headers.get("location")], [303, "/signin"], "signed-in operators only");
  await anonymous.arrayBuffer();

  const saved = await postBranding(as("bea"), { ...draft, logo_sha256: SHA, do: "save" });
  t.same([saved.status, saved.location], [303, `${PAGE}?notice=branded#branding`], text(saved.body).slice(0, 300));
  const b = await stored();
  t.same([b?.displayName, b?.primaryColor, b?.cornerStyle, b?.logoSha256], ["Lucky Star", "#ffd60a", "pill", SHA], "saved, naming the previewed logo");
  const after = await as("bea").get(`${PAGE}?notice=branded`);
  t.match(text(after.body), "Branding saved: the hosted Cashier shows it on its next page.");
  t.match(after.body, `src="/logos/${SHA}.png" alt="Lucky Star" id="brand-now-logo"`, "the header now");
  const audit = await svc().sql<{ outcome: string }>("select outcome from audit_log where action = 'frontend.update' and actor = 'bea' order by id");
  t.same(
    audit.map((r) => r.outcome),
    ["success"],
    "the save is audited, the preview is not",
  );
  t.match(
    await hostedPage(),
    `<header class="merchant-header"><img class="merchant-logo" src="/cashier/logo/${SHA}.png" alt="Lucky Star"></header>`,
    "the hosted page shows it",
  );
});

t.test("a refused draft shows the engine's words beside its field, as typed", async (t) => {
  const r = await postBranding(as("bea"), { ...draft, text_color: "#999999", background_color: "#ffffff", do: "preview" });
  t.equal(r.status, 400);
  const beside = /<p class="error" id="brand-text_color-error">([^<]+)<\/p>/.exec(r.body)?.[1] ?? "";
  t.match(beside, /#999999 on background_color #ffffff has a contrast of 2\.\d\d:1; WCAG AA needs at least 4\.5:1/);
  t.match(r.body, /id="brand-text_color" name="text_color" type="text" value="#999999"/, "kept as typed");
  t.match(r.body, 'aria-invalid="true"');
  const save = await postBranding(as("bea"), { ...draft, display_name: "", logo_sha256: SHA, do: "save" });
  t.equal(save.status, 400);
  t.match(/id="brand-display_name-error">([^<]+)</.exec(save.body)?.[1], "is required", "a save's refusal (frontend.branding.display_name) too");
  t.match(
    /id="brand-logo-error">([^<]+)</.exec(
      (await postBranding(as("bea"), { ...draft, do: "preview" }, [["logo_png", Buffer.from("<svg/>"), "x.svg"]])).body,
    )?.[1],
    "SVG",
  );
  t.equal((await stored())?.textColor, "#1d2330", "nothing changed");
});

t.test("Remove logo drops it; the hosted page shows the name", async (t) => {
  const r = await postBranding(as("bea"), { ...draft, logo_sha256: SHA, remove_logo: "1", do: "save" });
  t.equal(r.status, 303);
  t.equal((await stored())?.logoSha256, "");
  t.match(await hostedPage(), '<header class="merchant-header"><p class="merchant-name">Lucky Star</p></header>');
  const both = await postBranding(as("bea"), { ...draft, remove_logo: "1", do: "save" }, [["logo_png", LOGO, "logo.png"]]);
  t.equal(both.status, 400);
  t.match(text(both.body), "Choose a new logo or remove the logo, not both.");
});

t.test("a bad body is a 400 page naming why; a form without its token is 403", async (t) => {
  const bea = as("bea");
  const raw = (headers: Record<string, string>, body: Buffer | string) =>
    fetch(`${base}${POST}`, { method: "POST", headers: { cookie: cookieOf(bea), ...headers }, body, redirect: "manual" });
  const noBoundary = await raw({ "content-type": "multipart/form-data" }, "--x\r\n");
  t.same([noBoundary.status, text(await noBoundary.text()).includes("The form's content type names no boundary.")], [400, true]);
  const big = await postBranding(bea, { ...draft, do: "preview" }, [["logo_png", Buffer.alloc(140 * 1024), "big.png"]]);
  t.same([big.status, text(big.body).includes("The form is over 128 KiB: choose a smaller logo.")], [400, true]);
  const two = await postBranding(bea, { ...draft, do: "preview" }, [
    ["logo_png", LOGO, "a.png"],
    ["logo_png", LOGO, "b.png"],
  ]);
  t.same([two.status, text(two.body).includes("The form carries two files (logo_png and logo_png); send one.")], [400, true]);
  const forged = await postBranding(bea, { ...draft, do: "save" }, [], "forged");
  t.equal(forged.status, 403);
  const noStep = await postBranding(bea, { ...draft });
  t.same([noStep.status, text(noStep.body).includes("Press Preview or Save.")], [400, true]);
});

t.test("a viewer and a support operator cannot post it: the engine refuses, nothing changes", async (t) => {
  const before = await stored();
  for (const login of ["vic", "sam"]) {
    const page = await as(login).get(PAGE);
    t.equal(page.status, 200);
    t.notMatch(page.body, 'id="branding-form"', `${login} sees no form`);
    t.match(page.body, 'id="brand-now"', `${login} sees the header as it is`);
    for (const step of ["preview", "save"]) {
      const r = await postBranding(as(login), { ...draft, display_name: "Forged", do: step }, [["logo_png", LOGO, "logo.png"]]);
      t.equal(r.status, 403, `${login}'s ${step}`);
    }
  }
  const denied = await svc().sql<{ actor: string; detail: string }>(
    "select actor, detail from audit_log where action = 'merchant.update' and outcome = 'failure' order by id",
  );
  t.same(
    denied.map((r) => `${r.actor}: ${r.detail}`),
    [
      "vic: role viewer does not allow merchant.update",
      "vic: role viewer does not allow merchant.update",
      "sam: role support does not allow merchant.update",
      "sam: role support does not allow merchant.update",
    ],
    "each refusal is the engine's, audited",
  );
  t.same(await stored(), before, "nothing changed");
});
