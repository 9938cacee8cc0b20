import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { compareEvaluations, renderComparison } from "../../pipeline/evaluate/score/compare.js";
import { main } from "../../pipeline/cli/main.js";
import { copyOf, evaluated } from "./score-fixture.js";

let noop: string;
let oracle: string;
const results = (dir: string) => readFileSync(join(dir, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));

beforeAll(async () => {
  [noop, oracle] = await Promise.all([evaluated("noop"), evaluated("oracle")]);
}, 180_000);

describe("synth compare", () => {
  it("gives the paired per-task difference B − A with its interval, and every task that flips", () => {
    const c = compareEvaluations(noop, oracle);
    const tasks = [...new Set(results(oracle).map((r) => `${r.domain}/${r.task}`))].sort();
    const e0 = c.scopes.E0!;
    // the oracle solves every task at E0, noop none: every task gains, the difference is +1 exactly
    expect(e0).toEqual({ tasks: tasks.length, a: 0, b: 1, difference: { mean: 1, lo: 1, hi: 1 }, flips: tasks.map((task) => ({ task, a: 0, b: 1, direction: "gained" })), unpaired: [] });
    expect(Object.keys(c.scopes)).toEqual(["all", "E0", "E1"]);
    // the other way round, everything is lost
    const back = compareEvaluations(oracle, noop).scopes.E0!;
    expect(back.difference).toEqual({ mean: -1, lo: -1, hi: -1 });
    expect(back.flips.every((f) => f.direction === "lost")).toBe(true);
    expect(renderComparison(c)).toContain(`E0: ${tasks.length} paired tasks, strict success A 0.0%, B 100.0%, B − A +100.0 pp [95% +100.0 pp, +100.0 pp]`);
  });

  it("leaves errored episodes out and lists tasks that only one side has", () => {
    const dir = copyOf(oracle);
    const rs = results(dir);
    const gone = `${rs[0].domain}/${rs[0].task}`;
    // every episode of the first task errored in B
    for (const r of rs) if (`${r.domain}/${r.task}` === gone) Object.assign(r, { status: "errored", end: "errored", error: { class: "timeout", message: "t" } });
    writeFileSync(join(dir, "results.jsonl"), rs.map((r) => `${JSON.stringify(r)}\n`).join(""));
    const all = compareEvaluations(noop, dir).scopes.all!;
    expect(all.unpaired).toEqual([gone]);
    expect(all.flips.map((f) => f.task)).not.toContain(gone);
  });

  it("refuses evaluations of different releases, naming both root hashes", () => {
    const dir = copyOf(oracle);
    const file = join(dir, "settings.json");
    const s = JSON.parse(readFileSync(file, "utf8"));
    s.release.root_hash = "f".repeat(64);
    writeFileSync(file, JSON.stringify(s));
    expect(() => compareEvaluations(noop, dir)).toThrow(expect.objectContaining({ code: "COMPARE_RELEASE_MISMATCH", value: "f".repeat(64), location: { file, path: "release.root_hash" } }));
  });

  it("CLI: 0 when compared (JSON on --json), 2 for a bad --seed, quoting it", async () => {
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const err = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    try {
      expect(await main(["node", "synth", "compare", noop, oracle, "--json"])).toBe(0);
      expect(JSON.parse(String(out.mock.calls.at(-1)?.[0])).scopes.E0.difference.mean).toBe(1);
      expect(await main(["node", "synth", "compare", noop, oracle, "--seed", "x1"])).toBe(2);
      expect(String(err.mock.calls.at(-1)?.[0])).toBe('synth: --seed: [USAGE] --seed expects a whole number (got "x1")\n');
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });
});
