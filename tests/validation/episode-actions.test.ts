import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../pipeline/core/canonical-json.js";
import { actionsOf, EpisodeDriver, parseActions, runActions, runActionsDetailed, type EpisodeAction } from "../../validation/episode-actions.js";
import { actionsFromPlan } from "../../validation/plan-actions.js";
import { approvedRelease, domain, fundedRelease, golden, smallRelease } from "./fixture.js";

const strip = (events: readonly object[]) => canonicalJson(events.map((e) => ({ ...e, state_hash: undefined })));

describe("episode actions", () => {
  it("turns a golden trace into its actions: opening, calls, asks with their text, approvals by proposing operation", () => {
    expect(actionsOf(golden(approvedRelease()))).toEqual([
      { type: "open" },
      { type: "call", name: "get_payment", args: { payment_id: "PAY-00002" } },
      { type: "call", name: "get_client", args: { client_id: "CL-001" } },
      { type: "ask", text: "Could you please tell me the invoice reference?" },
      { type: "call", name: "validate_payment", args: { payment_id: "PAY-00002", invoice_ref: "INV-2026-0102" } },
      { type: "call", name: "list_accounts", args: { client_id: "CL-001" } },
      { type: "call", name: "propose_release", args: { payment_id: "PAY-00002", amount: 25000 } },
      { type: "approve", proposal_of: "propose_release", proposal_id: "PR-0001" },
      { type: "call", name: "release_approved_payment", args: { payment_id: "PAY-00002", amount: 25000, fee: 15 } },
    ]);
  });

  it("keeps each action's events: an ask owns the reply, a wait owns the scheduled events it fired", () => {
    const parsed = parseActions(golden(fundedRelease()));
    expect(parsed.map((p) => [p.action.type, p.events])).toEqual([
      ["open", [1]], ["call", [2]], ["ask", [3, 4]], ["call", [5]], ["call", [6]], ["call", [7]], ["ask", [8, 9]], ["call", [10]], ["call", [11]], ["wait", [12, 13]], ["call", [14]],
    ]);
  });

  it("re-running a trace's actions reproduces its events exactly", () => {
    for (const task of [smallRelease(), approvedRelease(), fundedRelease()]) {
      const g = golden(task);
      const again = runActions(domain(), task, actionsOf(g), { role: "golden", label: "golden" });
      expect(strip(again.events)).toBe(strip(g.events));
      expect(again.final_state_hash).toBe(g.final_state_hash);
    }
  });

  it("the reference plan becomes actions: asks name the topic, approvals name the proposing operation, waits keep minutes", () => {
    const actions = actionsFromPlan(fundedRelease(), domain().world);
    expect(actions.filter((a) => a.type !== "call")).toEqual([
      { type: "open" },
      { type: "ask", text: "Could you please tell me the amount to move?" },
      { type: "ask", text: "Could you please tell me the invoice reference?" },
      { type: "wait", minutes: 20 },
    ]);
    expect(actionsFromPlan(approvedRelease(), domain().world)).toContainEqual({ type: "approve", proposal_of: "propose_release", proposal_id: null });
  });

  it("an approval request goes to the newest pending proposal of its operation, whatever its id now is", () => {
    const task = approvedRelease();
    const base = actionsFromPlan(task, domain().world);
    const propose = base.findIndex((a) => a.type === "call" && a.name === "propose_release");
    // A first proposal of other terms shifts the ids: the approval must still reach the second one (PR-0002).
    const extra: EpisodeAction = { type: "call", name: "propose_release", args: { payment_id: "PAY-00002", amount: 1 } };
    const actions = [...base.slice(0, propose), extra, ...base.slice(propose)];
    const run = runActionsDetailed(domain(), task, actions);
    const approval = run.trace.events.find((e) => e.kind === "approval");
    expect(approval?.proposal_id).toBe("PR-0002");
    expect(run.trace.events.at(-1)).toMatchObject({ name: "release_approved_payment", status: "executed" });
  });

  it("records a statement, an unprompted customer message and an approval asked for in vain as such", () => {
    const task = smallRelease();
    const driver = EpisodeDriver.open(domain(), task);
    try {
      driver.do({ type: "open" });
      driver.do({ type: "say", text: "I will look into it." });
      driver.do({ type: "wait", minutes: 5 });
      driver.do({ type: "customer_say", text: "The invoice is INV-2026-0101.", facts: ["invoice_ref"] });
      const declined = driver.do({ type: "approve", proposal_of: "propose_release", proposal_id: null });
      expect(declined.outcome).toBeNull();
      expect(declined.reply).toBe("I can't find a proposal PR-none.");
      const trace = driver.finish();
      const actions = parseActions(trace).map((p) => p.action);
      expect(actions).toEqual([
        { type: "open" },
        { type: "say", text: "I will look into it." },
        { type: "wait", minutes: 5 },
        { type: "customer_say", text: "The invoice is INV-2026-0101.", facts: ["invoice_ref"] },
        { type: "approve", proposal_of: null, proposal_id: "PR-none" },
      ]);
      expect(strip(runActions(domain(), task, actions).events)).toBe(strip(trace.events));
    } finally {
      driver.close();
    }
  });
});
