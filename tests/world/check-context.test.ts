import { describe, expect, it } from "vitest";
import { createCheckContext } from "../../pipeline/world/check-context.js";
import { applyOverlay } from "../../pipeline/world/build-state.js";
import type { Task } from "../../pipeline/schemas/index.js";
import { fixture } from "./fixture.js";

describe("check-context", () => {
  it("reads rows and keys of s0 (after the task overlay), as fresh copies", () => {
    const { world, state } = fixture();
    const s0 = applyOverlay(state, world, [{ table: "accounts", op: "upsert", row: { account_id: "ACC-001", balance: 21000 } }]);
    const task = { id: "t" } as unknown as Task;
    const ctx = createCheckContext(world, task, s0);
    const row = ctx.initialRow("accounts", "ACC-001");
    expect(row).toEqual({ account_id: "ACC-001", client_id: "CL-001", currency: "EUR", kind: "operating", balance: 21000, reserve_floor: 20000, frozen: 0, risk_score: 3 });
    if (row) row.balance = 0;
    expect(ctx.initialRow("accounts", "ACC-001")?.balance).toBe(21000);
    expect(ctx.initialRow("accounts", "ACC-999")).toBeNull();
    expect(ctx.initialRow("no_table", "x")).toBeNull();
    expect(ctx.initialKeys("transfers")).toEqual([]);
    expect(ctx.initialKeys("clients").slice(0, 3)).toEqual(["CL-001", "CL-002", "CL-003"]);
    expect(ctx.task).toBe(task);
    ctx.close();
  });
});
