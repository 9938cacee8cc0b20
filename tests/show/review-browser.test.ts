import { existsSync, mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect } from "vitest";
import { blockOthers, browserTest, launchChromium, pageProblems } from "../helpers/chromium.js";
import { removeTree } from "../../pipeline/release/remove-tree.js";
import { runCli } from "../cli/run-cli.js";
import { SAMPLE, SAMPLE_DIR } from "./show-fixture.js";

const SCREENSHOT = resolve(import.meta.dirname, "../../generated/test-artifacts/review-index.png");

const manifest = JSON.parse(readFileSync(join(SAMPLE_DIR, "manifest.json"), "utf8")) as { files: Record<string, string>; counts: { by_domain: Record<string, unknown> } };
const taskPages = Object.keys(manifest.files)
  .map((f) => /^domains\/([^/]+)\/tasks\/([^/]+)\.json$/.exec(f))
  .filter((m): m is RegExpExecArray => m !== null)
  .map((m) => `${m[1]}/${m[2]}.html`)
  .sort();

describe("synth review in headless Chromium", () => {
  browserTest("the index loads with no console error and no request, links every task page, and a followed link shows a clause quotation; screenshotted", async () => {
    const dir = mkdtempSync(join(tmpdir(), "review-browser-"));
    try {
      const out = join(dir, "review");
      const r = runCli(["review", SAMPLE, "--out", out]);
      expect(r.code).toBe(0);
      const outUrl = pathToFileURL(out).href;
      const context = await launchChromium(join(dir, "profile"), { width: 1400, height: 900 });
      try {
        const loaded: string[] = [];
        // only the review's own pages load; anything else (a stylesheet, a font, a beacon) is a failure
        const requests = await blockOthers(context, (url) => {
          const own = url.startsWith(`${outUrl}/`) && url.endsWith(".html");
          if (own) loaded.push(url.slice(outUrl.length + 1));
          return own;
        });
        const page = await context.newPage();
        const problems = pageProblems(page);
        await page.goto(`${outUrl}/index.html`, { waitUntil: "load" });
        expect(await page.title()).toBe(`review of ${SAMPLE}`);
        expect(await page.$$eval("section[id]", (s) => s.map((x) => x.id))).toEqual(Object.keys(manifest.counts.by_domain).sort().map((d) => `domain-${d}`));
        const links = await page.$$eval("a[href]", (a) => a.map((x) => x.getAttribute("href") ?? ""));
        expect([...links].sort()).toEqual(taskPages);
        for (const l of links) expect(existsSync(join(out, l))).toBe(true);
        expect(await page.locator("script").count()).toBe(0);
        mkdirSync(join(SCREENSHOT, ".."), { recursive: true });
        await page.screenshot({ path: SCREENSHOT, fullPage: true });
        await Promise.all([page.waitForURL(`${outUrl}/fx-treasury/fx-treasury-024.html`), page.locator('a[href="fx-treasury/fx-treasury-024.html"]').click()]);
        expect(await page.title()).toBe(`fx-treasury-024 — ${SAMPLE}`);
        const clause = page.locator("tr#event-11 blockquote.clause");
        await expect.poll(() => clause.isVisible()).toBe(true);
        expect(await clause.innerText()).toBe("  81 | 8. Put the exact terms to the client's authorised approver with `propose_payment_release` (PAP-2.2).");
        expect(loaded).toEqual(["index.html", "fx-treasury/fx-treasury-024.html"]);
        expect(problems).toEqual([]);
        expect(requests).toEqual([]);
      } finally {
        await context.close();
      }
      expect(readFileSync(SCREENSHOT).subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    } finally {
      removeTree(dir);
    }
  }, 120_000);
});
