import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect } from "vitest";
import { blockOthers, browserTest, launchChromium, pageProblems } from "../helpers/chromium.js";
import { removeTree } from "../../pipeline/release/remove-tree.js";
import { renderHtml } from "../../pipeline/show/render-html.js";
import { showReleaseTask } from "../../pipeline/show/show-task.js";
import { runCli } from "../cli/run-cli.js";
import { RELEASES, SAMPLE } from "./show-fixture.js";

const SCREENSHOT = resolve(import.meta.dirname, "../../generated/test-artifacts/show.png");
/** fx-treasury-024's approval check of its first release (PAY-10013), decided at golden event 17. */
const APPROVED = "check-process-release_approved_payment-approved-PAY-10013-EUR-BEN-1022";

describe("synth show --html in headless Chromium", () => {
  browserTest("loads with no console error and no request, has its sections and anchors, quotes a clause visibly, escapes markup; screenshotted", async () => {
    const dir = mkdtempSync(join(tmpdir(), "show-browser-"));
    try {
      const file = join(dir, "fx-treasury-024.html");
      const r = runCli(["show", SAMPLE, "fx-treasury-024", "--html", file]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`wrote ${file}\n`);
      // the same view with markup planted in a customer's words: it must show as text
      const view = showReleaseTask(SAMPLE, "fx-treasury-001", RELEASES);
      view.task.opening_request = `<script>document.title="owned"</script><b>bold?</b> & "quotes"`;
      const marked = join(dir, "marked.html");
      writeFileSync(marked, renderHtml(view));
      const context = await launchChromium(join(dir, "profile"), { width: 1400, height: 900 });
      try {
        const pages = [file, marked].map((f) => pathToFileURL(f).href);
        const requests = await blockOthers(context, (url) => pages.includes(url));
        const page = await context.newPage();
        const problems = pageProblems(page);
        await page.goto(pages[0] as string, { waitUntil: "load" });
        expect(await page.$$eval("section[id]", (s) => s.map((x) => x.id).filter((id) => !id.startsWith("check-")))).toEqual(["task", "documents", "trace"]);
        expect(await page.$$eval("h2[id]", (h) => h.map((x) => x.id))).toEqual(["goal-checks", "process-checks", "protection-checks"]);
        expect(await page.locator("tr#event-1").count()).toBe(1);
        expect(await page.locator("tr#event-22").count()).toBe(1);
        expect(await page.locator(`section#${APPROVED}`).count()).toBe(1);
        // the event that decided the check links to the check's anchor, and the check back to it
        expect(await page.locator(`tr#event-17 a[href="#${APPROVED}"]`).count()).toBe(1);
        expect(await page.locator(`section#${APPROVED} a[href="#event-17"]`).count()).toBe(1);
        const clause = page.locator("tr#event-11 blockquote.clause");
        await expect.poll(() => clause.isVisible()).toBe(true);
        expect(await clause.innerText()).toBe("  81 | 8. Put the exact terms to the client's authorised approver with `propose_payment_release` (PAP-2.2).");
        expect(await page.locator("script").count()).toBe(0);
        mkdirSync(join(SCREENSHOT, ".."), { recursive: true });
        await page.screenshot({ path: SCREENSHOT, fullPage: true });
        await page.goto(pages[1] as string, { waitUntil: "load" });
        expect(await page.title()).toBe(`fx-treasury-001 — ${SAMPLE}`);
        expect(await page.locator("script").count()).toBe(0);
        expect(await page.locator("#task p", { hasText: `<script>document.title="owned"</script><b>bold?</b> & "quotes"` }).count()).toBe(1);
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
