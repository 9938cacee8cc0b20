import { z } from "zod";
import { quote } from "../../../pipeline/core/errors.js";
import { defineCheck } from "../types.js";
import { Scalar, formatList, sameValue } from "../lib/values.js";
import { eventList, eventRef, executions } from "../lib/events.js";

export const ruleVersionFollowed = defineCheck({
  kind: "rule_version_followed",
  group: "process",
  description:
    "Every execution of the operation passes, in one argument, a value the applicable rule version prescribes (`allowed`) and never the value of an outdated version (`forbidden`).",
  catches: "an outdated or out-of-scope document version followed: the old fee, threshold or rate used instead of the one in force",
  params: z
    .object({
      operation: z.string().min(1).describe("Operation whose argument is judged."),
      arg: z.string().min(1).describe("Argument that carries the rule-dependent value."),
      allowed: z.array(Scalar).min(1).optional().describe("Values the applicable version prescribes."),
      forbidden: z.array(Scalar).min(1).optional().describe("Values only an outdated or out-of-scope version prescribes."),
      version: z.string().min(1).optional().describe("The applicable version (e.g. `fee-schedule@2026`), quoted in reasons."),
    })
    .strict()
    .refine((p) => p.allowed !== undefined || p.forbidden !== undefined, { message: "give `allowed`, `forbidden` or both" }),
  run(p, trace) {
    const runs = executions(trace, p.operation, {});
    const version = p.version ? ` of ${p.version}` : "";
    for (const e of runs) {
      const has = Object.hasOwn(e.args, p.arg);
      const value = e.args[p.arg];
      if (has && p.forbidden?.some((v) => sameValue(value, v))) {
        return { passed: false, reason: `${eventRef(e)} used ${p.arg} = ${quote(value)}, a value of an outdated rule version (forbidden: ${formatList(p.forbidden)})`, event: e.index };
      }
      if (p.allowed && !(has && p.allowed.some((v) => sameValue(value, v)))) {
        const got = has ? `${p.arg} = ${quote(value)}` : `no ${p.arg}`;
        return { passed: false, reason: `${eventRef(e)} used ${got}, not the value${version} (allowed: ${formatList(p.allowed)})`, event: e.index };
      }
    }
    if (runs.length === 0) return { passed: true, reason: `${p.operation} was never executed; no rule version was applied`, event: null };
    const rule = p.allowed ? `in ${formatList(p.allowed)}` : `not in ${formatList(p.forbidden ?? [])}`;
    return { passed: true, reason: `every execution of ${p.operation} used ${p.arg} ${rule}${version} (${eventList(runs)})`, event: runs.at(-1)?.index ?? null };
  },
});
