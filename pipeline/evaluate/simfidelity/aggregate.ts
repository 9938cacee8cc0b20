import type { FidelityCall, FidelityFigures, SimFidelityReport } from "./report-schema.js";

/** Figures of a set of compared calls. */
export function figures(calls: readonly FidelityCall[]): FidelityFigures {
  const fields = calls.reduce((n, c) => n + c.fields, 0);
  const agreeing = calls.reduce((n, c) => n + c.agreeing, 0);
  return {
    calls: calls.length,
    valid: calls.filter((c) => c.valid).length,
    status_agreement: calls.length === 0 ? null : calls.filter((c) => c.status_agrees).length / calls.length,
    fields,
    field_agreement: fields === 0 ? null : agreeing / fields,
    invented: calls.reduce((n, c) => n + c.invented, 0),
    missing: calls.reduce((n, c) => n + c.missing, 0),
  };
}

function groupBy(calls: readonly FidelityCall[], key: (c: FidelityCall) => string): Record<string, FidelityFigures> {
  const groups = new Map<string, FidelityCall[]>();
  for (const c of calls) groups.set(key(c), [...(groups.get(key(c)) ?? []), c]);
  return Object.fromEntries([...groups.keys()].sort().map((k) => [k, figures(groups.get(k) ?? [])]));
}

/** The conversation a call belongs to: one trace (its source, domain and task). */
const conversation = (c: FidelityCall) => `${c.source}/${c.domain}/${c.task}`;

/** The report's figures: overall, per trace source, per domain, per operation, and drift over the conversation. */
export function aggregate(calls: readonly FidelityCall[]): Pick<SimFidelityReport, "overall" | "by_source" | "by_domain" | "by_operation" | "drift"> {
  const perConversation = new Map<string, number>();
  for (const c of calls) perConversation.set(conversation(c), Math.max(perConversation.get(conversation(c)) ?? 0, c.position));
  const firstHalf = (c: FidelityCall) => c.position <= Math.ceil((perConversation.get(conversation(c)) ?? 0) / 2);
  const first = figures(calls.filter(firstHalf));
  const second = figures(calls.filter((c) => !firstHalf(c)));
  const positions = [...new Set(calls.map((c) => c.position))].sort((a, b) => a - b);
  return {
    overall: figures(calls),
    by_source: groupBy(calls, (c) => c.source),
    by_domain: groupBy(calls, (c) => c.domain),
    by_operation: groupBy(calls, (c) => `${c.domain}/${c.operation}`),
    drift: {
      by_position: positions.map((position) => ({ position, figures: figures(calls.filter((c) => c.position === position)) })),
      first_half: first,
      second_half: second,
      change: first.field_agreement === null || second.field_agreement === null ? null : second.field_agreement - first.field_agreement,
    },
  };
}
