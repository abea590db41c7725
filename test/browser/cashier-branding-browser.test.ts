/**
 * Two differently branded frontends' deposit pages in Chromium (docs/cashier.md,
 * Branding): each names its merchant in the title and header (one by its logo,
 * a PNG from the merchants file, whose alt text is the name; the other in
 * words), its colours and corners reach the page through the nonce'd custom
 * properties (the strict CSP reports no violation and lets the logo load), axe
 * finds nothing on either, and each is screenshotted for the docs
 * (CASHIER_SCREENSHOT_DIR=docs/screenshots).
 */
import { readFileSync } from "node:fs";
import t, { type Test } from "tap";
import type { Browser, Page } from "playwright-core";
import { axeViolations, launchBrowser, screenshot } from "../support/browser.ts";
import { SECRET, sessionBody, startSession } from "../support/cashier.ts";
import { useService } from "../support/service.ts";

const BRANDS = {
  "lucky-usd": {
    display_name: "Lucky Star Casino",
    primary_color: "#ffd60a",
    background_color: "#fffdf5",
    text_color: "#1d2330",
    corner_style: "pill",
  },
  "nordlicht-eur": {
    display_name: "Nordlicht Spiele",
    primary_color: "#0f766e",
    background_color: "#f0fdfa",
    text_color: "#134e4a",
    corner_style: "square",
  },
} as const;

/**
 * Lucky Star's logo, 240 x 64 with a transparent background: drawn once in Chromium from HTML (a star and the
 * name), kept as a fixture so that the docs' screenshot shows a logo a merchant would upload.
 */
const LOGO = readFileSync(new URL("../fixtures/lucky-star-logo.png", import.meta.url));

let browser: Browser;
t.before(async () => {
  browser = await launchBrowser();
});
t.teardown(async () => {
  await browser?.close();
});
const service = useService(
  t,
  {},
  {
    merchants: {
      merchants: [
        {
          merchant_id: "m-brand",
          secret: SECRET,
          frontends: [
            {
              name: "lucky-usd",
              base_currency: "USD",
              deposit_presets: [1000, 2500, 5000],
              branding: { ...BRANDS["lucky-usd"], logo_png: LOGO.toString("base64") },
            },
            { name: "nordlicht-eur", base_currency: "EUR", deposit_presets: [2000, 5000], branding: BRANDS["nordlicht-eur"] },
          ],
        },
      ],
    },
  },
);

/** #rrggbb as getComputedStyle writes it. */
const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(", ")})`;

async function opened(t: Test, frontend: keyof typeof BRANDS, currency: string): Promise<{ page: Page; cspErrors: string[] }> {
  const reply = await startSession(service().edgeUrl, sessionBody({ merchant_id: "m-brand", frontend, currency }));
  t.equal(reply.http, 200, "the session starts", { reply: reply.body });
  const context = await browser.newContext({ viewport: { width: 480, height: 900 } });
  context.setDefaultTimeout(20_000);
  t.teardown(() => context.close());
  const page = await context.newPage();
  const cspErrors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && /Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
  });
  await page.goto(reply.body.redirect_url as string);
  return { page, cspErrors };
}

for (const [frontend, currency, buttonText] of [
  ["lucky-usd", "USD", "#1d2330"],
  ["nordlicht-eur", "EUR", "#ffffff"],
] as const) {
  t.test(`${frontend}: the merchant's name, colours and corners on its deposit page, axe clean`, async (t) => {
    const b = BRANDS[frontend];
    const { page, cspErrors } = await opened(t, frontend, currency);
    t.match(await page.title(), new RegExp(` · ${b.display_name}$`), "the title names the merchant");
    if (frontend === "lucky-usd") {
      // A string, run in the page: the tests are typed without the DOM's library.
      const logo = (await page.evaluate(`(() => {
        const img = document.querySelector("header.merchant-header img");
        return img && { alt: img.alt, width: img.naturalWidth, height: img.naturalHeight, src: new URL(img.src).pathname };
      })()`)) as { alt: string; width: number; height: number; src: string } | null;
      t.match(
        logo,
        { alt: b.display_name, width: 240, height: 64, src: /^\/cashier\/logo\/[0-9a-f]{64}\.png$/ },
        "the header shows the logo, loaded, named by its alt",
      );
    } else t.equal((await page.textContent("header.merchant-header"))?.trim(), b.display_name, "the header names the merchant");
    // A string, run in the page: the tests are typed without the DOM's library.
    const look = (await page.evaluate(`(() => {
      const pay = getComputedStyle(document.querySelector("#pay"));
      const body = getComputedStyle(document.body);
      return { body: body.backgroundColor, text: body.color, fill: pay.backgroundColor, ink: pay.color, corner: pay.borderTopLeftRadius };
    })()`)) as Record<string, string>;
    t.same(
      look,
      {
        body: rgb(b.background_color),
        text: rgb(b.text_color),
        fill: rgb(b.primary_color),
        ink: rgb(buttonText),
        corner: b.corner_style === "pill" ? "999px" : "0px",
      },
      "the page and its pay button wear the brand (the button text the engine chose)",
    );
    t.same(cspErrors, [], "the strict CSP refused nothing");
    t.same(await axeViolations(page), [], `axe: ${frontend}`);
    t.comment(`screenshot: ${await screenshot(page, `cashier-branding-${frontend}`)}`);
  });
}
