import { describe, expect, it } from "vitest";
import { runCli } from "../cli/run-cli.js";

const OFFLINE = { FOUNDRY_MODEL: "", FOUNDRY_MODEL_ENV_SIM: "", FOUNDRY_CONFIG: "/dev/null" };

describe("synth evaluate --env: offline usage errors exit 2 naming what is wrong, no stack trace", () => {
  const cases: Array<[string[], RegExp]> = [
    [["--agent", "noop", "--env", "simulated"], /--env simulated needs a model for the env-sim role/],
    [["--agent", "noop", "--env", "hybrid"], /--env hybrid needs a model for the env-sim role/],
    [["--agent", "noop", "--env", "virtual"], /--env expects one of executable, simulated, hybrid, got "virtual"/],
    [["--agent", "oracle", "--env-sim", "openai:gpt-4.1-mini"], /--env-sim is used only with --env simulated or hybrid, got --env executable/],
    [["--agent", "oracle", "--simulate-ops", "execute_transfer"], /--simulate-ops is used only with --env hybrid/],
    [["--agent", "oracle", "--env", "hybrid", "--env-sim", "openai:gpt-4.1-mini"], /--env hybrid renders responses as text for an agent that reads them \(provider:model or noop\)/],
    [["--agent", "noop", "--env", "simulated", "--env-sim", "openai:gpt-4.1-mini", "--simulate-ops", "a"], /--simulate-ops is used only with --env hybrid \(simulated mode simulates every business call\)/],
    [["--agent", "noop", "--env", "simulated", "--env-sim", "openai:gpt-4.1-mini", "--tools", "discovery"], /--env simulated offers the environment configuration's direct tools/],
  ];
  it.each(cases)("%j", (args, message) => {
    const r = runCli(["evaluate", "sample", ...args], { env: OFFLINE });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("--help documents --env, its default and the env-sim role", () => {
    const r = runCli(["evaluate", "--help"], { env: OFFLINE });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/--env <mode>\s+executable \(default;/);
    expect(r.stdout).toMatch(/--env-sim <spec>/);
    expect(r.stdout).toMatch(/--simulate-ops <list>/);
  });
});
