import { z } from "zod";
import { quote } from "../../../pipeline/core/errors.js";
import { defineCheck } from "../types.js";
import { checkConfigError } from "../lib/config-error.js";
import { changedState, eventRef } from "../lib/events.js";
import { sameValue } from "../lib/values.js";

const DISCLOSING_KINDS: ReadonlySet<string> = new Set(["customer_message", "customer_action"]);
const USING_KINDS: ReadonlySet<string> = new Set(["tool_call", "proposal"]);

export const factElicitedBeforeUse = defineCheck({
  kind: "fact_elicited_before_use",
  group: "process",
  description:
    "A private fact of the customer is disclosed (listed in `facts` of a customer message or action) before the first executed call that passes its value; never disclosed fails.",
  catches: "a customer fact skipped or guessed: the value used before the customer gave it, or never asked for at all",
  params: z
    .object({
      fact: z.string().min(1).describe("Id of a private fact in the task scenario."),
      param: z.string().min(1).optional().describe("Argument that carries the fact's value; defaults to the fact's `param`."),
      operation: z.string().min(1).optional().describe("Only calls of this operation count as a use; any agent call when omitted."),
    })
    .strict(),
  run(p, trace, ctx) {
    const fact = ctx.task.scenario.private_facts.find((f) => f.id === p.fact);
    if (!fact) throw checkConfigError(`task ${ctx.task.id} has no private fact ${quote(p.fact)}`, p.fact);
    const param = p.param ?? fact.param;
    if (!param) throw checkConfigError(`private fact ${p.fact} names no \`param\`; give \`param\` in the check`, p.fact);
    const disclosed = trace.events.find((e) => DISCLOSING_KINDS.has(e.kind) && e.facts.includes(p.fact));
    const use = trace.events.find(
      (e) =>
        USING_KINDS.has(e.kind) &&
        e.actor === "agent" &&
        changedState(e) &&
        (p.operation === undefined || e.name === p.operation) &&
        Object.hasOwn(e.args, param) &&
        sameValue(e.args[param], fact.value),
    );
    const used = `${param} = ${quote(fact.value)}`;
    if (!use) {
      if (disclosed) return { passed: true, reason: `fact ${p.fact} was disclosed at ${eventRef(disclosed)}; ${used} was never used in an executed call`, event: disclosed.index };
      return { passed: false, reason: `fact ${p.fact} was never disclosed by the customer (and ${used} was never used)`, event: null };
    }
    if (disclosed && disclosed.index < use.index) {
      return { passed: true, reason: `fact ${p.fact} was disclosed at ${eventRef(disclosed)} before its first use at ${eventRef(use)}`, event: use.index };
    }
    const when = disclosed ? `only disclosed it at ${eventRef(disclosed)}` : "never disclosed it";
    return { passed: false, reason: `${eventRef(use)} used ${used} before the customer disclosed fact ${p.fact} (the customer ${when})`, event: use.index };
  },
});
