import type { ActionStep } from "../../../validation/episode-driver.js";
import type { EpisodeAction } from "../../../validation/episode-actions.js";
import { given, workProbeAsync, type ProbeWork } from "../../../validation/probes/probe-agent.js";
import { chooseVersions, readSop, type ReadSop } from "../../../validation/probes/read-documents.js";
import type { AgentView } from "../../../validation/probes/visible-world.js";
import { sha256 } from "../../core/canonical-json.js";
import { COMPETENT, FLAWED_PROBES, type ProbeStyle } from "../../../validation/probes/probe-style.js";
import type { KnowledgeDocument } from "../../world/documents-tool.js";
import type { CustomerProfile } from "../../sop/select-rules.js";
import type { AgentFactory } from "./types.js";

/** Probe names `probe:NAME` takes. */
export const PROBE_STYLES: ReadonlyMap<string, ProbeStyle> = new Map([COMPETENT, ...FLAWED_PROBES].map((s) => [s.name, s]));

/** Attempts of one document call when it errors or is faulted (a probe that rechecks tries again). */
const READ_ATTEMPTS = 3;

function* callUntil(action: EpisodeAction, style: ProbeStyle): ProbeWork<ActionStep | null> {
  for (let i = 0; i < (style.recheck ? READ_ATTEMPTS : 1); i++) {
    const step = yield action;
    if (!step || step.outcome?.status === "executed") return step;
  }
  return null;
}

/**
 * The documents a probe follows, read through the document tools (so every read is in the trace
 * and counts in efficiency): list the versions, choose by dates and scope (or the newest, for the
 * newest-version probe) from the headers, read each chosen version by id and version.
 */
function* readThroughTools(style: ProbeStyle, date: string, customer: CustomerProfile): ProbeWork<KnowledgeDocument[]> {
  const listed = yield* callUntil({ type: "call", name: "list_reference_documents", args: {} }, style);
  const headers = ((listed?.outcome?.result as { documents?: unknown } | undefined)?.documents ?? []) as Array<Omit<KnowledgeDocument, "text">>;
  if (!Array.isArray(headers)) return [];
  const complete = headers.filter((h) => h && typeof h.id === "string" && typeof h.version === "string" && typeof h.effective_from === "string" && h.scope !== undefined);
  const chosen = chooseVersions(complete.map((h) => ({ ...h, text: "" })), style.versions, date, customer);
  const docs: KnowledgeDocument[] = [];
  for (const h of chosen) {
    const step = yield* callUntil({ type: "call", name: "read_document", args: { id: h.id, version: h.version } }, style);
    const text = (step?.outcome?.result as { text?: unknown } | undefined)?.text;
    if (typeof text === "string") docs.push({ ...h, text });
  }
  return docs;
}

// readSop is pure in the documents' headers and text and the visible world: episodes that read the
// same versions (every run and condition of a task, most tasks of a domain) share one extraction.
const extracted = new WeakMap<AgentView, Map<string, ReadSop>>();

function memoReadSop(docs: readonly KnowledgeDocument[], view: AgentView): ReadSop {
  let perView = extracted.get(view);
  if (!perView) extracted.set(view, (perView = new Map()));
  const key = sha256(JSON.stringify(docs.map((d) => [d.id, d.version, d.title, d.kind, d.effective_from, d.effective_to, d.scope, d.text])));
  let sop = perView.get(key);
  if (!sop) perView.set(key, (sop = readSop(docs, view)));
  return structuredClone(sop);
}

/**
 * `probe:NAME`: a validation probe (competent, goal-rusher, newest-version, fact-guesser,
 * no-recheck) acting only through the session's tools; it reads documents through the document
 * tools. The probe's work (validation's generator) is driven through the session's `act`, so in
 * simulated mode the simulator answers its business calls. Probes are evaluated with the
 * deterministic customer only (episode-factories.ts).
 */
export function probeAgent(spec: string, style: ProbeStyle): AgentFactory {
  return {
    spec,
    asyncCustomer: false,
    tasks: null,
    create: ({ world }) => ({
      spec,
      asyncCustomer: false,
      run: async (session) => {
        const documents = (customer: CustomerProfile) => (session.givenDocuments.length > 0 ? given([...session.givenDocuments]) : readThroughTools(style, session.businessDate, customer));
        await workProbeAsync({ do: (a) => session.act(a) }, { world, request: session.opening, readSop: memoReadSop, documents }, style);
        if (!session.over) await session.call("finish", {});
        return { end: "finished", usage: null };
      },
    }),
  };
}
