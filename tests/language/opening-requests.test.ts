import { cpSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { RandomStream } from "../../pipeline/core/random.js";
import { runBuild } from "../../pipeline/build/run-build.js";
import { Progress } from "../../pipeline/build/progress.js";
import { Task, ValidationReport } from "../../pipeline/schemas/index.js";
import { openingRequest } from "../../pipeline/agents/task-designer/opening-request.js";

/** Build the acme-returns fixture with `seed`; its released tasks and the validation report. */
async function build(seed: number): Promise<{ tasks: Task[]; report: ValidationReport }> {
  const root = mkdtempSync(join(tmpdir(), `opening-${seed}-`));
  cpSync("tests/fixtures/sources/acme-returns", join(root, "sources/acme-returns"), { recursive: true });
  await runBuild({ config: resolveConfig({ env: { FOUNDRY_SEED: String(seed) }, cwd: "/nonexistent" }), paths: { sources: join(root, "sources"), sop: join(root, "sop"), generated: join(root, "generated") }, progress: new Progress("silent") });
  const out = join(root, "generated/acme-returns");
  const report = ValidationReport.parse(JSON.parse(readFileSync(join(out, "validation.json"), "utf8")));
  const tasks = report.tasks.filter((t) => t.status === "released").map((t) => Task.parse(JSON.parse(readFileSync(join(out, "tasks", `${t.task}.json`), "utf8"))));
  return { tasks, report };
}

describe("opening requests", () => {
  it("are phrased by the seed, never by joining titles, and the same seed gives the same words", () => {
    const asks = [
      { title: "Release an outgoing payment", object: "payment", key: "PAY-00001" },
      { title: "Cancel a payment that has not been released", object: "payment", key: "PAY-00002" },
    ];
    const say = (seed: number) => openingRequest("Alder Freight", "CL-001", asks, new RandomStream(seed).fork("opening"));
    const texts = [1, 2, 3, 4, 5, 6, 7, 8].map(say);
    expect(new Set(texts).size).toBeGreaterThanOrEqual(4);
    expect(say(3)).toBe(texts[2]);
    for (const t of texts) {
      expect(t).not.toContain(", and then");
      // Each piece of work is its own sentence naming the title's words and its key, in order.
      expect(t.indexOf("release an outgoing payment")).toBeGreaterThan(0);
      expect(t.indexOf("PAY-00001")).toBeLessThan(t.indexOf("cancel a payment that has not been released"));
      expect(t.indexOf("cancel a payment that has not been released")).toBeLessThan(t.indexOf("PAY-00002"));
    }
  });

  it("vary with the seed in built tasks, and the competent probe solves every task the build releases", async () => {
    const a = await build(7);
    const b = await build(8);
    for (const { tasks, report } of [a, b]) {
      expect(tasks.length).toBeGreaterThan(0);
      for (const t of tasks) expect(t.scenario.opening_request).not.toContain(", and then");
      // The self-consistency check ran on every released task and the competent probe solved it;
      // no task was dropped because the competent probe could not read the request.
      for (const e of report.tasks.filter((x) => x.status === "released")) expect(e.probes.competent).toBe(true);
      expect(report.tasks.filter((x) => (x.drop_reason ?? "").startsWith("solvability"))).toEqual([]);
    }
    // The first word of each sentence shows the phrasing drawn (greetings: Hello/Hi/Good/This; asks: I/Could/We/After/…).
    const shape = (t: Task) => t.scenario.opening_request.split(/(?<=[.?!])\s+(?=[A-Z])/).map((x) => x.split(" ")[0]).join(" ");
    expect(new Set([...a.tasks, ...b.tasks].map(shape)).size).toBeGreaterThan(1);
  }, 240_000);
});
