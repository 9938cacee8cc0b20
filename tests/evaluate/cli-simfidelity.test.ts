import { describe, expect, it } from "vitest";
import { runCli } from "../cli/run-cli.js";

const OFFLINE = { FOUNDRY_MODEL: "", FOUNDRY_MODEL_ENV_SIM: "", FOUNDRY_CONFIG: "/dev/null" };

describe("synth simfidelity: --agents and --help", () => {
  const cases: Array<[string[], RegExp]> = [
    [["--agents", "oracle"], /--agents needs at least two agents to rank \(a pair\), got 1/],
    [["--agents", "oracle,oracle"], /--agents needs at least two agents to rank \(a pair\), got 1/],
    [["--agents", "oracle,robot"], /--agent expects oracle, noop, replay:FILE, probe:NAME or provider:model, got "robot"/],
    [["--agents", "oracle,"], /--agents expects a comma-separated list without empty items/],
  ];
  it.each(cases)("%j is a usage error (exit 2, no stack trace)", (args, message) => {
    const r = runCli(["simfidelity", "sample", "--simulator", "openai:gpt-4.1-mini", ...args], { env: OFFLINE });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("--help documents --agents with its default, the trace sources and the ranking figure", () => {
    const r = runCli(["simfidelity", "--help"], { env: OFFLINE });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--agents <specs>\s+the agents whose traces are replayed and who are ranked/);
    expect(r.stdout).toContain("oracle,probe:competent,probe:goal-rusher,noop");
    expect(r.stdout).toMatch(/Pairwise ranking agreement = agreeing pairs \/ pairs compared/);
  });
});
