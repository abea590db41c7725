/**
 * Real-browser helpers for the hosted pages: Debian's Chromium through
 * playwright-core (never a downloaded browser), axe-core run inside the page
 * without weakening its CSP (its source goes in through the DevTools protocol,
 * as page.evaluate does, not as an inline script tag), a keyboard walk, and
 * screenshots kept in a temp dir for a person to look at.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { chromium, type Browser, type Page } from "playwright-core";
import type { Test } from "tap";

export const CHROMIUM = "/usr/bin/chromium";

/**
 * How many Chromiums the test files of one checkout run at once
 * (CASHIER_TEST_BROWSERS, default 2). tap starts six files together and the
 * browser files come first, so on CI's two cores six Chromiums, each beside its
 * own engine and edge, made a page load take over 15 s and one file 969 s. A
 * file waits for a slot before its browser starts; the slot is a file holding
 * the owner's pid, freed when the browser closes or the process ends (a slot
 * whose owner is gone is taken over).
 */
const BROWSER_SLOTS = Math.max(1, Number(process.env.CASHIER_TEST_BROWSERS ?? 2) || 2);
const SLOT_DIR = join(tmpdir(), `cashier-browsers-${createHash("sha256").update(process.cwd()).digest("hex").slice(0, 12)}`);

function ownerAlive(path: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(path, "utf8"));
  } catch {
    return false; // freed meanwhile
  }
  if (!Number.isInteger(pid) || pid <= 0) return true; // being written
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function browserSlot(): Promise<() => void> {
  mkdirSync(SLOT_DIR, { recursive: true });
  for (;;) {
    for (let i = 0; i < BROWSER_SLOTS; i++) {
      const path = join(SLOT_DIR, `slot-${i}`);
      try {
        writeFileSync(path, String(process.pid), { flag: "wx" });
      } catch {
        if (!ownerAlive(path)) rmSync(path, { force: true });
        continue;
      }
      let held = true;
      const free = () => {
        if (!held) return;
        held = false;
        process.off("exit", free);
        rmSync(path, { force: true });
      };
      process.on("exit", free);
      return free;
    }
    await sleep(250);
  }
}

/** Headless Chromium as the machine ships it, once one of the run's browser slots is free. */
export async function launchBrowser(): Promise<Browser> {
  const free = await browserSlot();
  try {
    const browser = await launch();
    browser.on("disconnected", free);
    return browser;
  } catch (err) {
    free();
    throw err;
  }
}

function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

// The functions below run inside the page; they are strings because this
// project's TypeScript has no DOM library (the server code must not see one).

const RUN_AXE = `(async () => {
  const result = await window.axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } });
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(" ")) }));
})()`;

/** axe-core's WCAG 2.1 A/AA (and best-practice) rules on the page as it stands; the serious and critical violations. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  return (await axeAll(page)).filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** The same rules' violations of every impact, the moderate and minor ones included. */
export async function axeAll(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate("typeof window.axe === 'object'"))) await page.evaluate(AXE_SOURCE);
  return (await page.evaluate(RUN_AXE)) as AxeViolation[];
}

/** Asserts the page has no serious or critical axe violation, naming the page in the assertion. */
export async function axeClean(t: Test, page: Page, name: string): Promise<void> {
  t.same(await axeViolations(page), [], `axe: no serious or critical violation on ${name}`);
}

/** axeClean, then a screenshot named `shot` for a person to look at, its path in the test's output. */
export async function axeCleanShot(t: Test, page: Page, name: string, shot: string): Promise<void> {
  await axeClean(t, page, name);
  t.comment(`screenshot: ${await screenshot(page, shot)}`);
}

/** Presses Tab until `selector` has the focus (at most `max` presses); true when it got there. */
export async function tabTo(page: Page, selector: string, max = 80): Promise<boolean> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(`document.activeElement === document.querySelector(${JSON.stringify(selector)})`)) return true;
  }
  return false;
}

export interface FocusStop {
  /** tag#id or tag.name of the focused element. */
  element: string;
  /** Its text, trimmed. */
  text: string;
  /** Whether a focus indicator is drawn (an outline or a box-shadow). */
  visible: boolean;
}

const DESCRIBE = `const describe = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : el.getAttribute("name") ? "." + el.getAttribute("name") : "");`;

const FOCUSED = `(() => {
  ${DESCRIBE}
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return null;
  const style = getComputedStyle(el);
  const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
  const shadow = style.boxShadow !== "none";
  return { element: describe(el), text: (el.innerText || el.getAttribute("aria-label") || "").trim(), visible: outline || shadow };
})()`;

/** Presses Tab from the top of the page (wherever the focus was) until the focus leaves it or comes back round; each stop, in order. */
export async function keyboardWalk(page: Page, max = 50): Promise<FocusStop[]> {
  // Start from the top: focus a throw-away, unfocusable-by-Tab marker before everything, then Tab away from it.
  await page.evaluate(`(() => {
    const start = document.createElement("span");
    start.tabIndex = -1;
    start.id = "__walk-start";
    document.body.prepend(start);
    start.focus();
  })()`);
  const stops: FocusStop[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < max; i++) {
    await page.keyboard.press("Tab");
    if (i === 0) await page.evaluate("document.getElementById('__walk-start').remove()");
    const stop = (await page.evaluate(FOCUSED)) as FocusStop | null;
    if (!stop) break;
    const key = `${stop.element}|${stop.text}`;
    if (seen.has(key)) break;
    seen.add(key);
    stops.push(stop);
  }
  return stops;
}

/**
 * A page's keyboard walk, as an operator's main path needs it: each of `ids` (a stop's element starts with it,
 * e.g. "input#fe-presets") is reached by Tab, and every stop shows its focus.
 */
export async function keyboardReaches(t: Test, page: Page, ids: readonly string[], max = 50): Promise<FocusStop[]> {
  const stops = await keyboardWalk(page, max);
  for (const id of ids)
    t.ok(
      stops.some((s) => s.element.startsWith(id)),
      `the keyboard reaches ${id}`,
    );
  t.same(
    stops.filter((s) => !s.visible).map((s) => s.element),
    [],
    "every stop shows its focus",
  );
  return stops;
}

/** Every control a keyboard user must reach: links, buttons, visible inputs, selects, text areas. */
export async function focusableControls(page: Page): Promise<string[]> {
  return (await page.evaluate(`(() => {
    ${DESCRIBE}
    return [...document.querySelectorAll("a[href], button, input:not([type=hidden]), select, textarea")]
      .filter((el) => !el.disabled)
      .map(describe);
  })()`)) as string[];
}

/** Where this run's screenshots go (CASHIER_SCREENSHOT_DIR, else a temp dir), created on first use. */
export function screenshotDir(): string {
  const dir = process.env.CASHIER_SCREENSHOT_DIR ?? join(tmpdir(), "cashier-screenshots");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A full-page PNG of the page; its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(screenshotDir(), `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
