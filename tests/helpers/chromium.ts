import { existsSync } from "node:fs";
import { it } from "vitest";
import { chromium, type BrowserContext, type Page } from "playwright-core";

/** Debian's chromium (`.ci/run` installs it when missing). */
export const CHROMIUM = "/usr/bin/chromium";
const found = existsSync(CHROMIUM);

/**
 * `it` for a browser test. Under CI a missing browser is a failure, never a skip (a skipped browser
 * test would pass CI green); elsewhere the test is skipped without one.
 */
export const browserTest = found || process.env.CI === "true" ? it : it.skip;

/** Headless Chromium with a fresh profile in `profileDir`, with no background traffic. Throws, naming the fix, when there is none. */
export async function launchChromium(profileDir: string, viewport: { width: number; height: number }): Promise<BrowserContext> {
  if (!found) throw new Error(`no Chromium at ${CHROMIUM}: install Debian's chromium (.ci/run does: apt-get install -y --no-install-recommends chromium)`);
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run", "--disable-component-update", "--disable-sync"],
    viewport,
  });
}

/** Let through only the requests `allow` accepts; every other URL is aborted and listed in the returned array. */
export async function blockOthers(context: BrowserContext, allow: (url: string) => boolean): Promise<string[]> {
  const blocked: string[] = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (allow(url)) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  return blocked;
}

/** Console errors and warnings and uncaught page errors of `page`, collected as they happen. */
export function pageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning") problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}
