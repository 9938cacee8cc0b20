import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { Writable } from "node:stream";
import { afterAll, describe, expect, it, vi } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { runBuild } from "../../pipeline/build/run-build.js";
import { Progress } from "../../pipeline/build/progress.js";
import { printOutcome } from "../../pipeline/cli/commands/build.js";
import { ScriptedServer } from "../llm/scripted-server.js";

/** Every file under `dir` with its bytes, by relative path. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p).toString("base64");
    }
  };
  walk(dir);
  return out;
}

let server: ScriptedServer | null = null;
afterAll(async () => {
  await server?.close();
});

describe("a build whose every extractor call fails (real ChatOpenAI over HTTP, a server that answers 500)", () => {
  it("leaves the committed sop/ byte for byte, counts each failed chunk as an error in progress and exits 1", async () => {
    const root = mkdtempSync(join(tmpdir(), "llm-extractor-"));
    cpSync("sources/fx-treasury", join(root, "sources/fx-treasury"), { recursive: true });
    cpSync("sop/fx-treasury", join(root, "sop/fx-treasury"), { recursive: true });
    const card = join(root, "sources/fx-treasury/domain.yaml");
    writeFileSync(card, readFileSync(card, "utf8").replace(/task_count: \d+/, "task_count: 1"));
    const before = snapshot(join(root, "sop/fx-treasury"));
    expect(Object.keys(before).length).toBeGreaterThan(3);

    server = await ScriptedServer.start(() => ({ status: 500, body: { error: { message: "upstream exploded" } } }));
    const events: Array<Record<string, unknown>> = [];
    const sink = new Writable({ write: (chunk, _enc, done) => void (String(chunk).split("\n").filter(Boolean).forEach((l) => events.push(JSON.parse(l) as Record<string, unknown>)), done()) });
    const config = resolveConfig({ env: {}, cwd: "/nonexistent", flags: { models: { "sop-extractor": "openai:gpt-4.1" }, base_url: server.baseUrl, max_retries: 0 } });
    const outcome = await runBuild({ config, paths: { sources: join(root, "sources"), sop: join(root, "sop"), generated: join(root, "generated") }, progress: new Progress("json", sink) });

    // Nothing under sop/ changed: not a byte, not a file added or removed (meta.json still says what made it).
    expect(snapshot(join(root, "sop/fx-treasury"))).toEqual(before);
    const extract = outcome.domains[0]!.stages.find((s) => s.stage === "extract_sop")!;
    const failed = extract.dropped.filter((d) => d.reason.startsWith("SOP_LLM_FAILED: "));
    // One chunk per request (max_retries 0), each an error of the stage.
    expect(failed.length).toBe(server.requests.length);
    // The three prose chunks the llm extractor reads in fx-treasury.
    expect(server.requests).toHaveLength(3);
    for (const f of failed) {
      expect(f.item).toMatch(/docs\/[a-z0-9-]+\.md$/);
      expect(f.reason).toMatch(/^SOP_LLM_FAILED: lines \d+-\d+ were not extracted \(server_error after 1 attempt\): openai:gpt-4\.1 failed for stage extract_sop after 1 attempt: server_error \(HTTP 500\): 500 upstream exploded$/);
    }
    const done = events.find((e) => e.event === "stage_done" && e.stage === "extract_sop") as { detail: string };
    expect(done.detail).toMatch(new RegExp(`, ${failed.length} errors$`));
    // The rest of the build ran on the committed SOP.
    expect(outcome.domains[0]!.records).toHaveLength(1);

    const stderr: string[] = [];
    const err = vi.spyOn(process.stderr, "write").mockImplementation((s) => (stderr.push(String(s)), true));
    const out = vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const exitBefore = process.exitCode;
    try {
      printOutcome(outcome, true);
      expect(process.exitCode).toBe(1);
    } finally {
      process.exitCode = exitBefore;
      err.mockRestore();
      out.mockRestore();
    }
    expect(stderr.join("").split("\n")[0]).toBe(`${failed.length} item(s) dropped for model failures:`);
  }, 240_000);
});
