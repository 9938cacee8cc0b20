import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect } from "vitest";
import { blockOthers, browserTest, launchChromium, pageProblems } from "../helpers/chromium.js";
import { summarize } from "../../pipeline/evaluate/score/summarize.js";
import { reportHtml } from "../../pipeline/evaluate/score/report/write-report.js";
import { removeTree } from "../../pipeline/release/remove-tree.js";
import { calls, episode, RELEASE, settings } from "./metrics-fixtures.js";
import { evaluated } from "./score-fixture.js";

const SCREENSHOT = resolve(import.meta.dirname, "../../generated/test-artifacts/report.png");

/** A report over 3 tasks x 4 conditions x 2 runs with failures, flags and an errored episode. */
async function sampleReport(): Promise<string> {
  const rs = (["E0", "E1", "E2", "E3"] as const).flatMap((condition, i) =>
    ["t1", "t2", "t3"].flatMap((task, j) =>
      [0, 1].map((run) =>
        episode({ task, condition, run, success: (i + j + run) % 3 !== 0, domain: j === 2 ? "ed" : "fx", industry: j === 2 ? "Healthcare" : "Business & Enterprise", calls: calls({ operations: 2 + run, document_reads: i }) }),
      ),
    ),
  );
  rs.push(episode({ task: "t4", status: "errored", end: "errored", success: false, error: { class: "rate_limit", message: "429 after 4 attempts <b>" } }));
  return reportHtml(summarize(rs, settings({ runs: 2 }), RELEASE), rs, []);
}

describe("report.html in headless Chromium", () => {
  browserTest("loads with no console error and no request, shows its five SVG charts, and is screenshotted", async () => {
    const dir = mkdtempSync(join(tmpdir(), "report-browser-"));
    const profile = join(dir, "profile");
    try {
      // a hand-made report (failures, an errored episode with markup in its message) and the report a real evaluation wrote
      const file = join(dir, "report.html");
      writeFileSync(file, await sampleReport());
      const real = join(await evaluated("probe:no-recheck", dir), "report.html");
      const context = await launchChromium(profile, { width: 1200, height: 900 });
      try {
        const pages = [file, real].map((f) => pathToFileURL(f).href);
        const requests = await blockOthers(context, (url) => pages.includes(url));
        for (const url of pages) {
          const page = await context.newPage();
          const problems = pageProblems(page);
          await page.goto(url, { waitUntil: "load" });
          const charts = await page.$$eval("figure", (figs) =>
            figs.map((f) => {
              const svg = f.querySelector("svg");
              const box = svg?.getBoundingClientRect();
              return { id: f.id, width: box?.width ?? 0, height: box?.height ?? 0, marks: svg ? svg.querySelectorAll("path, rect, line").length : 0 };
            }),
          );
          expect(charts.map((c) => c.id), url).toEqual(["industry-profile", "conditions", "pass-hat-k", "calls", "caps"]);
          for (const c of charts) {
            expect(c.width, `${url} ${c.id}`).toBeGreaterThan(100);
            expect(c.height, `${url} ${c.id}`).toBeGreaterThan(100);
            expect(c.marks, `${url} ${c.id}`).toBeGreaterThan(5);
          }
          expect(await page.locator("h2", { hasText: "Failed checks" }).count()).toBe(1);
          if (url === pages[0]) {
            // The escaped error message shows as text, never as markup.
            expect(await page.locator("td", { hasText: "429 after 4 attempts <b>" }).count()).toBe(1);
          } else {
            mkdirSync(join(SCREENSHOT, ".."), { recursive: true });
            await page.screenshot({ path: SCREENSHOT, fullPage: true });
            // the real evaluation's failed checks name the clause each enforces
            expect(await page.locator("td", { hasText: /^rule [A-Z]+-[\d.]+: / }).count()).toBeGreaterThan(0);
          }
          expect(problems, url).toEqual([]);
          await page.close();
        }
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
