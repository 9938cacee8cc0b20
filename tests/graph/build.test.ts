import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { resumeBuild, runBuild } from "../../pipeline/build/run-build.js";
import { Progress } from "../../pipeline/build/progress.js";
import { Task, Trace, ValidationReport } from "../../pipeline/schemas/index.js";
import { runCli } from "../cli/run-cli.js";
import { sourcesHash } from "../../pipeline/build/sources-hash.js";
import { loadValidDomain } from "../../pipeline/build/load-context.js";

/** A copy of the fx-treasury sample domain with a few task slots, in a fresh folder. */
function workspace(slots = 6): string {
  const root = mkdtempSync(join(tmpdir(), "build-"));
  cpSync("sources/fx-treasury", join(root, "sources/fx-treasury"), { recursive: true });
  const card = join(root, "sources/fx-treasury/domain.yaml");
  writeFileSync(card, readFileSync(card, "utf8").replace(/task_count: \d+/, `task_count: ${slots}`));
  return root;
}

const paths = (root: string) => ({ sources: join(root, "sources"), sop: join(root, "sop"), generated: join(root, "generated") });
const silent = new Progress("silent");
const config = resolveConfig({ env: {}, cwd: "/nonexistent" });

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const sub of ["tasks", "golden"]) {
    if (!existsSync(join(dir, sub))) continue;
    for (const f of readdirSync(join(dir, sub)).sort()) out[`${sub}/${f}`] = readFileSync(join(dir, sub, f), "utf8");
  }
  for (const f of ["validation.json", "report.json", "world.json", "documents.json", "sop.json"]) out[f] = readFileSync(join(dir, f), "utf8");
  return out;
}

describe("synth build (deterministic strategies)", () => {
  it("leaves tasks, checks and golden traces that pass the gates, and a second build does no work", async () => {
    const root = workspace();
    const first = await runBuild({ config, paths: paths(root), progress: silent });
    const d = first.domains[0]!;
    expect(d.domain).toBe("fx-treasury");
    expect(d.released).toBe(6);
    expect(d.dropped).toBe(0);
    const out = join(root, "generated/fx-treasury");
    const tasks = readdirSync(join(out, "tasks")).sort();
    expect(tasks).toEqual(["fx-treasury-001.json", "fx-treasury-002.json", "fx-treasury-003.json", "fx-treasury-004.json", "fx-treasury-005.json", "fx-treasury-006.json"]);
    for (const f of tasks) {
      const task = Task.parse(JSON.parse(readFileSync(join(out, "tasks", f), "utf8")));
      expect(task.checks.goal.length).toBeGreaterThan(0);
      expect(Trace.parse(JSON.parse(readFileSync(join(out, "golden", f), "utf8"))).role).toBe("golden");
    }
    const report = ValidationReport.parse(JSON.parse(readFileSync(join(out, "validation.json"), "utf8")));
    expect(report.summary.released).toBe(6);
    expect(report.summary.kill_rate).toBe(1);
    for (const t of report.tasks.filter((x) => x.status === "released")) expect(t.mutants.filter((m) => m.killed).length).toBeGreaterThanOrEqual(5);
    expect(existsSync(join(root, "sop/fx-treasury/rules.json"))).toBe(true);

    const before = snapshot(out);
    const second = await runBuild({ config, paths: paths(root), progress: silent });
    expect(second.cache.misses).toBe(0);
    expect(second.domains[0]!.written).toEqual([]);
    expect(snapshot(out)).toEqual(before);

    // A document edit that changes no procedure or rule. Golden traces record read_document
    // answers, so the knowledge base is part of the environment's hash: the task stages run again
    // and every answer of the edited document quotes its new text, never a cached old one.
    const reads = (trace: Trace) => trace.events.filter((e) => e.kind === "tool_call" && e.name === "read_document") as unknown as Array<{ args: { id: string }; result: { text: string } }>;
    const golden2 = Trace.parse(JSON.parse(before["golden/fx-treasury-002.json"] as string));
    const readId = reads(golden2)[0]?.args.id;
    expect(readId).toBeDefined();
    const docFile = readdirSync(join(root, "sources/fx-treasury/docs")).map((f) => join(root, "sources/fx-treasury/docs", f)).find((f) => new RegExp(`^id: ${readId}$`, "m").test(readFileSync(f, "utf8")) && /^effective_to: null$/m.test(readFileSync(f, "utf8")));
    expect(docFile).toBeDefined();
    const added = "The hub is staffed on every business day.";
    writeFileSync(docFile as string, `${readFileSync(docFile as string, "utf8")}\n${added}\n`);
    const third = await runBuild({ config, paths: paths(root), progress: silent });
    expect(third.cache.misses).toBeGreaterThan(3);
    const after = snapshot(out);
    expect(after["tasks/fx-treasury-002.json"]).toBe(before["tasks/fx-treasury-002.json"]); // the design does not depend on the prose
    const answers = Object.entries(after).filter(([f]) => f.startsWith("golden/")).flatMap(([, text]) => reads(Trace.parse(JSON.parse(text))).filter((e) => e.args.id === readId));
    expect(answers.length).toBeGreaterThan(0);
    for (const a of answers) expect(a.result.text).toContain(added);
    // Finished runs keep no checkpoints (nothing to resume), and resuming one is refused clearly.
    const db = new Database(join(root, "generated/runs/checkpoints.sqlite"), { readonly: true });
    try {
      expect(db.prepare("SELECT COUNT(*) AS n FROM checkpoints").get()).toEqual({ n: 0 });
      expect(db.prepare("SELECT COUNT(*) AS n FROM writes").get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
    await expect(resumeBuild({ config, run: first.run, generated: paths(root).generated, progress: silent })).rejects.toMatchObject({
      code: "USAGE",
      message: `run ${first.run} finished; there is nothing to resume (start a new build: an unchanged stage comes from the cache)`,
    });
  }, 120_000);

  it("resumes a build killed with SIGKILL in the middle of a stage and ends with identical files", () => {
    const killed = workspace(3);
    const clean = workspace(3);
    const marker = join(killed, "killed.marker");
    const args = (root: string) => ["build", "--sources", join(root, "sources"), "--sop", join(root, "sop"), "--generated", join(root, "generated")];
    const crash = runCli(args(killed), { env: { FOUNDRY_TEST_KILL_AT: "solve", FOUNDRY_TEST_KILL_MARKER: marker }, timeoutMs: 240_000 });
    expect(crash.code).toBe(-1); // killed by a signal: no exit status
    expect(existsSync(marker)).toBe(true);
    expect(existsSync(join(killed, "generated/fx-treasury/tasks"))).toBe(false);
    const run = /run (run-[0-9a-f]+)/.exec(crash.stderr)?.[1];
    expect(run).toBeDefined();
    const resumed = runCli(["resume", run as string, "--generated", join(killed, "generated")], { env: { FOUNDRY_TEST_KILL_AT: "solve", FOUNDRY_TEST_KILL_MARKER: marker }, timeoutMs: 240_000 });
    expect(resumed.stderr).toContain(`run ${run} (resuming with the run's stored settings)`);
    expect(resumed.code).toBe(0);
    expect(runCli(args(clean), { timeoutMs: 240_000 }).code).toBe(0);
    expect(snapshot(join(killed, "generated/fx-treasury"))).toEqual(snapshot(join(clean, "generated/fx-treasury")));
  }, 600_000);

  it("with --review pauses after SOP extraction and after the environment build, and continues from the edited SOP once approved", async () => {
    const root = workspace(2);
    const p = paths(root);
    const first = await runBuild({ config, paths: p, progress: silent, review: true });
    expect(first.domains[0]!.paused?.stage).toBe("review_sop");
    const wfFile = join(root, "sop/fx-treasury/workflows/payment-cancellation.json");
    const wf = JSON.parse(readFileSync(wfFile, "utf8")) as { title: string };
    writeFileSync(wfFile, `${JSON.stringify({ ...wf, title: "Cancel an unreleased payment (reviewed)" }, null, 2)}\n`);
    const second = await resumeBuild({ config, run: first.run, generated: p.generated, progress: silent, approve: true });
    expect(second.domains[0]!.paused?.stage).toBe("review_environment");
    // The pause names what the build really reads, and an edit made during it is what the build uses.
    const worldFile = join(root, "sources/fx-treasury/world.yaml");
    expect(second.domains[0]!.paused?.message).toContain(`review and edit ${worldFile} (the world model the build reads;`);
    writeFileSync(worldFile, readFileSync(worldFile, "utf8").replace("Corporate clients of the Treasury Services desk,", "Corporate clients of the Treasury Services desk (reviewed),"));
    const third = await resumeBuild({ config, run: first.run, generated: p.generated, progress: silent, approve: true });
    expect(third.domains[0]!.paused).toBeNull();
    const world = JSON.parse(readFileSync(join(p.generated, "fx-treasury/world.json"), "utf8")) as { tables: Array<{ name: string; description: string }> };
    expect(world.tables.find((t) => t.name === "clients")?.description).toBe("Corporate clients of the Treasury Services desk (reviewed), with their payment limits and mandate.");
    const report = JSON.parse(readFileSync(join(p.generated, "fx-treasury/report.json"), "utf8")) as { sources_hash: string };
    expect(report.sources_hash).toBe(sourcesHash(loadValidDomain(join(root, "sources/fx-treasury"))));
    expect(third.domains[0]!.records.map((r) => r.id)).toEqual(["fx-treasury-001", "fx-treasury-002"]);
    const sop = JSON.parse(readFileSync(join(p.generated, "fx-treasury/sop.json"), "utf8")) as { workflows: Array<{ id: string; title: string }> };
    expect(sop.workflows.find((w) => w.id === "payment-cancellation")?.title).toBe("Cancel an unreleased payment (reviewed)");
  }, 180_000);
});
