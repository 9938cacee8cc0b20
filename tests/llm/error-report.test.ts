import { describe, expect, it } from "vitest";
import { FoundryError } from "../../pipeline/core/errors.js";
import { errorReport } from "../../pipeline/cli/main.js";

/** Parallel branches that fail together reach the CLI as one AggregateError (LangGraph's superstep). */
describe("the CLI's error printer", () => {
  const auth = () => new FoundryError("LLM_AUTH", "OPENAI_API_KEY is not set, needed by solver (openai:gpt-4.1)", { path: "models.solver" }, ["OPENAI_API_KEY"]);
  const limit = new FoundryError("LLM_RATE_LIMIT", "openai:gpt-4.1 failed for stage design_task after 4 attempts: rate_limit (HTTP 429)", { path: "model" });

  it("prints an AggregateError as its distinct causes, a duplicate once, never AggregateError; exit 1", () => {
    const e = new AggregateError([auth(), limit, auth()], "Multiple errors occurred during superstep 6");
    expect(errorReport(e)).toEqual({
      lines: [
        'models.solver: [LLM_AUTH] OPENAI_API_KEY is not set, needed by solver (openai:gpt-4.1) (got ["OPENAI_API_KEY"])',
        "model: [LLM_RATE_LIMIT] openai:gpt-4.1 failed for stage design_task after 4 attempts: rate_limit (HTTP 429)",
      ],
      exit: 1,
    });
  });

  it("flattens nested AggregateErrors; an internal error among the causes makes it exit 70", () => {
    const bug = new TypeError("x is undefined");
    const r = errorReport(new AggregateError([new AggregateError([limit, bug]), limit], "Multiple errors occurred during superstep 2"));
    expect(r.exit).toBe(70);
    expect(r.lines).toHaveLength(2);
    expect(r.lines[0]).toBe("model: [LLM_RATE_LIMIT] openai:gpt-4.1 failed for stage design_task after 4 attempts: rate_limit (HTTP 429)");
    expect(r.lines[1]).toMatch(/^internal error: TypeError: x is undefined\n/);
    expect(r.lines.join("\n")).not.toContain("AggregateError");
  });

  it("a single error prints as one line: usage errors exit 2, other FoundryErrors 1", () => {
    expect(errorReport(new FoundryError("USAGE", "no domains under sources/"))).toEqual({ lines: ["[USAGE] no domains under sources/"], exit: 2 });
    expect(errorReport(limit).exit).toBe(1);
  });
});
