// Measures how fast the check engine judges long traces: `node --import tsx bench/checks-throughput.ts`
// (`--smoke`: one short trace, a few rounds; no target either way).
import { performance } from "node:perf_hooks";
import { SMOKE } from "./lib/smoke.js";
import { runChecks } from "../validation/checks/index.js";
import { accountRow, change, check, ctx, ev, makeTask, trace, type EventSpec } from "../tests/checks/fixtures/bank.js";

const task = makeTask({
  goal: [
    check("g-1", "goal", "final_row_state", { table: "payments", key: "PAY-1", require: [{ column: "status", op: "=", value: "released" }] }),
    check("g-2", "goal", "action_executed", { operation: "release_payment", args: { payment_id: "PAY-1" } }),
  ],
  process: [
    check("p-1", "process", "approval_before_execution", { operation: "release_payment" }),
    check("p-2", "process", "invariant_holds", { rule: "R-RESERVE-FLOOR" }),
    check("p-3", "process", "fact_elicited_before_use", { fact: "F-INVOICE" }),
    check("p-4", "process", "execution_count", { operation: "release_payment", min: 1, max: 1 }),
    check("p-5", "process", "deadline_met", { operation: "release_payment", by_minute: 100_000 }),
  ],
  protection: [
    check("x-1", "protection", "other_customers_untouched", {}),
    check("x-2", "protection", "protected_rows_unchanged", { table: "accounts", keys: ["ACC-9"] }),
  ],
});

function longTrace(n: number) {
  const specs: EventSpec[] = [ev.say(["F-INVOICE"])];
  for (let i = 0; i < n; i++) {
    const b = 5000 - (i % 10);
    specs.push({ name: "transfer_funds", changes: [change("accounts", "ACC-1", accountRow("ACC-1", "CL-001", b), accountRow("ACC-1", "CL-001", b - 1))] });
  }
  specs.push(ev.propose(5000, "P-1"), ev.approve("P-1"), ev.release(5000));
  return trace(specs);
}

for (const n of SMOKE ? [20] : [100, 1000]) {
  const t = longTrace(n);
  const rounds = SMOKE ? 5 : n === 100 ? 400 : 40;
  runChecks(task, t, ctx);
  const start = performance.now();
  for (let i = 0; i < rounds; i++) runChecks(task, t, ctx);
  const ms = (performance.now() - start) / rounds;
  console.log(`${t.events.length} events × 9 checks: ${ms.toFixed(2)} ms per trace (${Math.round(1000 / ms)} traces/s)`);
}
