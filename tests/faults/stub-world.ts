import type { Invoke, ToolOutcome } from "../../pipeline/world/types.js";

type Payment = { payment_id: string; amount: number; status: string };

/** A tiny in-memory stand-in for the runtime: five payments, a list, a lookup and a release. */
export function stubWorld() {
  const state = new Map<string, Payment>();
  for (let i = 1; i <= 5; i++) state.set(`PAY-${i}`, { payment_id: `PAY-${i}`, amount: i * 1000, status: "pending" });
  const calls: string[] = [];
  const invoke: Invoke = (call): ToolOutcome => {
    calls.push(`${call.actor}:${call.name}`);
    const id = String(call.args.payment_id ?? "");
    const row = state.get(id);
    switch (call.name) {
      case "list_payments":
        return { status: "executed", result: [...state.values()].map((p) => ({ ...p })), changes: [] };
      case "search_payments":
        return { status: "executed", result: { total: state.size, rows: [...state.values()].map((p) => ({ ...p })) }, changes: [] };
      case "get_payment":
        if (!row) return { status: "rejected", result: { error: { code: "not_found", message: "no such payment" } }, reason: "payment_exists", changes: [] };
        return { status: "executed", result: { ...row }, changes: [] };
      case "release_payment": {
        if (!row || row.status !== "pending") return { status: "rejected", result: { error: { code: "not_pending", message: "not pending" } }, reason: "is_pending", changes: [] };
        const before = { ...row };
        row.status = "released";
        return { status: "executed", result: { payment_id: row.payment_id, status: row.status }, changes: [{ table: "payments", key: id, before, after: { ...row } }] };
      }
      case "note":
        return { status: "executed", result: null, changes: [] };
      case "approve":
        return { status: "executed", result: { approved: true }, changes: [] };
      default:
        return { status: "errored", result: { error: { code: "unknown_tool", message: call.name } }, reason: "unknown tool", changes: [] };
    }
  };
  return { state, invoke, calls };
}
