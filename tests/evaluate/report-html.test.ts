import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Task } from "../../pipeline/schemas/index.js";
import { summarize } from "../../pipeline/evaluate/score/summarize.js";
import { reportHtml } from "../../pipeline/evaluate/score/report/write-report.js";
import { enforcedBy, failedChecks } from "../../pipeline/evaluate/score/report/failed-checks.js";
import { renderSvg } from "../../pipeline/evaluate/score/report/render-svg.js";
import { episode, RELEASE, settings } from "./metrics-fixtures.js";

const TASK = Task.parse(JSON.parse(readFileSync(new URL("../../generated/releases/sample/1.7.0/domains/fx-treasury/tasks/fx-treasury-001.json", import.meta.url), "utf8")));

/** fx-treasury-001 failing its PRP-4.3 process check at E1 in 2 of 2 runs, and passing at E0. */
function results() {
  const failing = (run: number) =>
    episode({
      domain: "fx-treasury",
      task: "fx-treasury-001",
      condition: "E1",
      run,
      success: false,
      checks: [
        { check: "goal-payments-PAY-10001-final", group: "goal", kind: "final_row_state", passed: true, reason: "row matches", event: null },
        { check: "process-defer_payment-PAY-10001-count", group: "process", kind: "execution_count", passed: false, reason: `defer_payment ran ${run + 2} times <script>`, event: 7 },
      ],
    });
  return [episode({ domain: "fx-treasury", task: "fx-treasury-001" }), failing(1), failing(0)];
}

describe("report.html", () => {
  it("names each failed check with its reason and the clause it enforces, one row per task and check", () => {
    expect(failedChecks(results(), [TASK])).toEqual([
      {
        task: "fx-treasury/fx-treasury-001",
        check: "process-defer_payment-PAY-10001-count",
        group: "process",
        kind: "execution_count",
        failed: 2,
        episodes: 3,
        conditions: ["E1"],
        // the first failure in episode order (run 0), whatever order the results came in
        reason: "defer_payment ran 2 times <script>",
        enforces: "rule PRP-4.3: payment-release-procedure@5.1 §PRP-4.3 (lines 130–130)",
      },
    ]);
    expect(enforcedBy(TASK.checks.goal[0])).toBe("customer requirement objective of task fx-treasury-001");
    expect(enforcedBy(undefined)).toBe("(check not in the release)");
  });

  it("is self-contained and the same bytes for the same inputs: inline SVG charts, no script, nothing fetched, text escaped", async () => {
    const rs = results();
    const s = summarize(rs, settings({ conditions: ["E0", "E1"] }), RELEASE);
    const html = await reportHtml(s, rs, [TASK]);
    expect(await reportHtml(s, [...rs].reverse(), [TASK])).toBe(html);
    expect(html.match(/<svg /g)).toHaveLength(5);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|src=|@import|url\((?!#)/i);
    // the only URLs are the SVG namespace declarations
    expect([...new Set(html.match(/https?:\/\/[^"' )]+/g))].sort()).toEqual(["http://www.w3.org/1999/xlink", "http://www.w3.org/2000/svg"]);
    expect(html).toContain("defer_payment ran 2 times &lt;script&gt;");
    expect(html).toContain("rule PRP-4.3: payment-release-procedure@5.1 §PRP-4.3 (lines 130–130)");
  });

  it("renders an evaluation whose every episode errored: empty charts, the errored episode listed", async () => {
    const rs = [episode({ status: "errored", end: "errored", success: false, error: { class: "auth", message: "OPENAI_API_KEY is not set" } })];
    const html = await reportHtml(summarize(rs, settings({ conditions: ["E0"] }), RELEASE), rs, []);
    expect(html.match(/<svg /g)).toHaveLength(5);
    expect(html).toContain("<td>auth</td><td>OPENAI_API_KEY is not set</td>");
    expect(html).toContain("<p>No check failed.</p>");
  });

  it("refuses a chart spec vega-lite warns about, naming the chart", async () => {
    const bad = { data: { values: [{ a: 1 }] }, mark: "bar", encoding: { x: { field: "a", type: "nominal" }, y: { field: "a", type: "no-such-type" } } };
    await expect(renderSvg(bad as never, "bad-chart")).rejects.toMatchObject({ code: "REPORT_CHART", message: 'chart bad-chart does not render cleanly: Invalid field type "undefined".', location: { path: "charts.bad-chart" } });
    // a warning, not an error: a shape channel a bar cannot draw would be dropped silently
    const warned = { data: { values: [{ a: 1 }] }, mark: "bar", encoding: { x: { field: "a", type: "nominal" }, shape: { field: "a", type: "nominal" } } };
    await expect(renderSvg(warned as never, "warned")).rejects.toMatchObject({ code: "REPORT_CHART", message: expect.stringMatching(/^chart warned does not render cleanly: .*shape/) });
  });
});
