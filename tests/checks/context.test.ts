import { describe, expect, it } from "vitest";
import { FoundryError } from "../../pipeline/core/errors.js";
import { buildCheckContext, finalRow, rowAt, stateTransitions } from "../../validation/checks/index.js";
import { accountRow, change, ctx, defaultTask, trace, world, type EventSpec } from "./fixtures/bank.js";

const move = (from: number, to: number, extra: Partial<EventSpec> = {}): EventSpec => ({
  name: "transfer_funds",
  changes: [change("accounts", "ACC-1", accountRow("ACC-1", "CL-001", from), accountRow("ACC-1", "CL-001", to))],
  ...extra,
});

describe("buildCheckContext", () => {
  it("indexes initial rows by primary key, comparing keys as text", () => {
    expect(ctx.initialRow("accounts", "ACC-2")).toEqual(accountRow("ACC-2", "CL-001", 2000));
    expect(ctx.initialRow("accounts", "ACC-404")).toBeNull();
    expect(ctx.initialKeys("payments")).toEqual(["PAY-1", "PAY-2"]);
    const numeric = buildCheckContext(world, defaultTask, { rates: [{ pair: 7, rate: 1 }] });
    expect(numeric.initialRow("rates", "7")).toEqual({ pair: 7, rate: 1 });
  });

  it("rejects an unknown table and a row without its key with FoundryError codes", () => {
    const unknown = (() => {
      try {
        buildCheckContext(world, defaultTask, { ledgers: [] });
      } catch (e) {
        return e;
      }
    })();
    expect(FoundryError.is(unknown) && [unknown.code, unknown.message]).toEqual(["CHECK_CONTEXT_UNKNOWN_TABLE", 'initial rows given for table "ledgers", which the world model does not declare']);
    expect(() => buildCheckContext(world, defaultTask, { accounts: [{ balance: 1 }] })).toThrow("row 0 of accounts has no primary key account_id");
  });
});

describe("row folding", () => {
  const t = trace([
    move(5000, 4000),
    move(4000, 1, { status: "rejected" }),
    move(4000, 2, { status: "errored" }),
    move(4000, 3, { status: "faulted", fault: { mode: "explicit", type: "http_500", detail: "x", fault_event: 0 } }),
    move(4000, 3500, { status: "faulted", fault: { mode: "implicit", type: "stale_value", detail: "x", fault_event: 1 } }),
    { name: "patch", changes: [change("accounts", "ACC-1", null, { balance: 3400 })] },
  ]);

  it("rowAt gives the state after each event; rejected, errored and explicit faults never change it", () => {
    expect([0, 1, 2, 3, 4, 5].map((i) => rowAt(t, ctx, "accounts", "ACC-1", i)?.balance)).toEqual([5000, 4000, 4000, 4000, 4000, 3500]);
  });

  it("finalRow merges a partial `after` onto the known row", () => {
    expect(finalRow(t, ctx, "accounts", "ACC-1")).toEqual(accountRow("ACC-1", "CL-001", 3400));
    expect(stateTransitions(t, ctx).map((x) => x.event.index)).toEqual([1, 5, 6]);
  });
});
