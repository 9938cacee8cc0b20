import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { scoreDirectory } from "../../pipeline/evaluate/score/score-dir.js";
import { main } from "../../pipeline/cli/main.js";
import { copyOf, evaluated } from "./score-fixture.js";

let noop: string;
const bytes = (dir: string) => ({ summary: readFileSync(join(dir, "summary.json"), "utf8"), report: readFileSync(join(dir, "report.html"), "utf8") });
const lines = (dir: string) => readFileSync(join(dir, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
const writeLines = (dir: string, rs: unknown[]) => writeFileSync(join(dir, "results.jsonl"), rs.map((r) => `${JSON.stringify(r)}\n`).join(""));

beforeAll(async () => {
  noop = await evaluated("noop");
}, 120_000);

describe("synth score", () => {
  it("reproduces summary.json and report.html byte for byte from the stored traces", async () => {
    const dir = copyOf(noop);
    const before = bytes(dir);
    rmSync(join(dir, "summary.json"));
    rmSync(join(dir, "report.html"));
    const out = await scoreDirectory(dir);
    expect(out.disagreements).toEqual([]);
    expect(out.episodes).toBe(lines(dir).length);
    expect(bytes(dir)).toEqual(before);
    // the noop agent fails every task, and its report lists the failed goal checks with their clause
    expect(out.summary.overall.strict_success.rate).toBe(0);
    expect(before.report).toContain("<h2>Failed checks</h2>");
    // the command: exit 0, and --json names what it wrote
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      expect(await main(["node", "synth", "score", dir, "--json"])).toBe(0);
      expect(JSON.parse(String(stdout.mock.calls.at(-1)?.[0]))).toEqual({ summary: join(dir, "summary.json"), report: join(dir, "report.html"), episodes: out.episodes, disagreements: [] });
    } finally {
      stdout.mockRestore();
    }
    expect(bytes(dir)).toEqual(before);
  });

  it("follows the traces, not results.jsonl: an edited result line is a disagreement and the figures stay those of the traces", async () => {
    const dir = copyOf(noop);
    const before = bytes(dir);
    const rs = lines(dir);
    expect(rs[0]).toMatchObject({ goal: false, protection: true, strict_success: false });
    Object.assign(rs[0], { goal: true, process: true, strict_success: true });
    writeLines(dir, rs);
    const out = await scoreDirectory(dir);
    expect(out.disagreements).toEqual([{ episode: `${rs[0].domain}/${rs[0].task}/${rs[0].condition}/${rs[0].run}`, fields: ["goal", "process", "strict_success"] }]);
    expect(bytes(dir)).toEqual(before);
    // and the command says so with exit 1
    expect(await main(["node", "synth", "score", dir])).toBe(1);
  });

  it("refuses changed and missing traces, naming every bad file (one never hides another)", async () => {
    const dir = copyOf(noop);
    const rs = lines(dir);
    const changed = join(dir, rs[0].trace_file);
    writeFileSync(changed, readFileSync(changed, "utf8").replace('"role"', '"role" '));
    rmSync(join(dir, rs[1].trace_file));
    const err = await scoreDirectory(dir).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AggregateError);
    const causes = (err as AggregateError).errors.map((e) => ({ code: e.code, file: e.location.file }));
    expect(causes).toEqual([
      { code: "SCORE_TRACE_CHANGED", file: changed },
      { code: "SCORE_TRACE_MISSING", file: join(dir, rs[1].trace_file) },
    ]);
  });

  it("refuses a trace path outside traces/ and a duplicate episode", async () => {
    const dir = copyOf(noop);
    const rs = lines(dir);
    rs[0].trace_file = "../../etc/passwd";
    writeLines(dir, [...rs, rs[1]]);
    const err = (await scoreDirectory(dir).catch((e: unknown) => e)) as AggregateError;
    expect(err.errors.map((e) => [e.code, e.value])).toEqual([
      ["SCORE_TRACE_PATH", "../../etc/passwd"],
      ["SCORE_DUPLICATE_EPISODE", `${rs[1].domain}/${rs[1].task}/${rs[1].condition}/${rs[1].run}`],
    ]);
  });

  it("refuses a release whose root hash is not the one evaluated, and a folder that is no evaluation", async () => {
    const dir = copyOf(noop);
    const file = join(dir, "settings.json");
    const settings = JSON.parse(readFileSync(file, "utf8"));
    const real = settings.release.root_hash;
    settings.release.root_hash = "0".repeat(64);
    writeFileSync(file, JSON.stringify(settings));
    await expect(scoreDirectory(dir)).rejects.toMatchObject({ code: "SCORE_RELEASE_MISMATCH", value: real, location: { file, path: "release.root_hash" } });
    rmSync(file);
    await expect(scoreDirectory(dir)).rejects.toMatchObject({ code: "SCORE_NOT_EVALUATION", location: { file: dir } });
    expect(await main(["node", "synth", "score", dir])).toBe(1);
  });
});
