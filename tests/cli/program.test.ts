import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";
import { buildProgram } from "../../pipeline/cli/main.js";

describe("synth program", () => {
  it("has --help on every command, and each help names its purpose", async () => {
    const program = await buildProgram("all");
    for (const cmd of program.commands) {
      expect(cmd.description().length, cmd.name()).toBeGreaterThan(20);
      expect(cmd.helpInformation()).toContain(`Usage: synth ${cmd.name()}`);
    }
  });

  it("exits 0 on --help and 2 on an unknown command or option", () => {
    expect(runCli(["--help"]).code).toBe(0);
    const unknown = runCli(["frobnicate"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
    expect(runCli(["schema"]).code).toBe(2);
  });

  it("synth schema --out writes one draft 2020-12 JSON Schema per artifact", () => {
    const out = mkdtempSync(join(tmpdir(), "schemas-"));
    const r = runCli(["schema", "--out", out]);
    expect(r.code).toBe(0);
    const files = readdirSync(out).sort();
    expect(files).toEqual([
      "acceptance-check.schema.json", "build-record.schema.json", "document-front-matter.schema.json", "domain-card.schema.json", "env-config-shared.schema.json", "env-config.schema.json",
      "evaluation-episode.schema.json", "evaluation-result.schema.json", "release-manifest.schema.json",
      "simulated-domain-card.schema.json", "simulated-evaluation.schema.json", "simulated-report.schema.json", "simulated-task.schema.json", "simulated-verdict.schema.json",
      "sop.schema.json", "task.schema.json", "trace.schema.json", "validation-report.schema.json", "world-model.schema.json",
    ]);
    for (const f of files) {
      const schema = JSON.parse(readFileSync(join(out, f), "utf8")) as Record<string, unknown>;
      expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    }
  });
});
