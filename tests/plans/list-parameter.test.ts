import { cpSync, mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { resolveConfig } from "../../pipeline/core/config.js";
import { runBuild } from "../../pipeline/build/run-build.js";
import { Progress } from "../../pipeline/build/progress.js";
import { Task, Trace, ValidationReport } from "../../pipeline/schemas/index.js";
import { argsSchema, parseArgs } from "../../pipeline/world/args.js";
import { loadWorld } from "../../pipeline/world/load-world.js";

// acme-returns: open_return takes `line_ids`, a list only the customer knows (a hidden JSON column
// on the order), bound to SQL as JSON text and read with json_each; get_order returns its lines as a
// parsed list (`result.json`).
describe("a list-valued parameter", () => {
  it("parses lists of scalars and refuses items that do not fit", () => {
    const world = loadWorld("tests/fixtures/sources/acme-returns/world.yaml", "world.yaml");
    const schema = argsSchema(world.operations.find((o) => o.name === "open_return")!.params);
    expect(parseArgs(schema, { order_id: "ORD-1001", line_ids: ["L-1001-1", "L-1001-3"] })).toEqual({ ok: true, value: { order_id: "ORD-1001", line_ids: ["L-1001-1", "L-1001-3"] } });
    expect(parseArgs(schema, { order_id: "ORD-1001", line_ids: "L-1001-1" })).toEqual({ ok: false, error: { code: "invalid_argument", field: "line_ids", message: "line_ids must be a list, got string" } });
    expect(parseArgs(schema, { order_id: "ORD-1001", line_ids: ["L-1"] })).toEqual({ ok: false, error: { code: "invalid_argument", field: "line_ids", message: "line_ids[] does not match the pattern ^L-\\d{4}-\\d$" } });
  });

  it("a task using it is designed from the customer's private list, released, and its golden trace replays", async () => {
    const root = mkdtempSync(join(tmpdir(), "list-param-"));
    cpSync("tests/fixtures/sources/acme-returns", join(root, "sources/acme-returns"), { recursive: true });
    await runBuild({ config: resolveConfig({ env: {}, cwd: "/nonexistent" }), paths: { sources: join(root, "sources"), sop: join(root, "sop"), generated: join(root, "generated") }, progress: new Progress("silent") });
    const out = join(root, "generated/acme-returns");
    const report = ValidationReport.parse(JSON.parse(readFileSync(join(out, "validation.json"), "utf8")));
    const released = report.tasks.filter((t) => t.status === "released");
    expect(released.length).toBeGreaterThan(0);
    const id = released[0]!.task;
    const task = Task.parse(JSON.parse(readFileSync(join(out, "tasks", `${id}.json`), "utf8")));
    expect(task.scenario.private_facts).toEqual([expect.objectContaining({ id: "line_ids", value: ["L-1001-1", "L-1001-3"], statement: "The line ids are L-1001-1 and L-1001-3." })]);
    expect(task.reference_plan.find((p) => p.operation === "open_return")?.args).toEqual({ order_id: "ORD-1001", line_ids: ["L-1001-1", "L-1001-3"] });
    expect(released[0]!.gates.find((g) => g.gate === "golden_replay")?.passed).toBe(true);
    const golden = Trace.parse(JSON.parse(readFileSync(join(out, "golden", `${id}.json`), "utf8")));
    const open = golden.events.find((e) => e.name === "open_return")!;
    expect(open.status).toBe("executed");
    expect(open.result).toEqual({ order_id: "ORD-1001", status: "return_open", returned: ["L-1001-1", "L-1001-3"] });
    // Only the two named lines changed; the toaster stays kept.
    expect(open.changes.filter((c) => c.table === "order_lines").map((c) => c.key).sort()).toEqual(["L-1001-1", "L-1001-3"]);
    expect(golden.events.find((e) => e.name === "get_order")?.result).toMatchObject({ lines: ["L-1001-1", "L-1001-2", "L-1001-3"] });
    expect(readdirSync(join(out, "tasks")).length).toBe(released.length);
  }, 120_000);
});
