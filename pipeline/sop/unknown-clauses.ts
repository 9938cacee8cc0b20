import type { SopProblem } from "../schemas/sop.js";
import { eachText } from "./block-text.js";
import type { ClauseReferences } from "./clause-references.js";
import type { DocInput } from "./extract-context.js";
import { problem } from "./problems.js";

type Refs = (text: string, self?: string) => ClauseReferences;

/** Every reference, anywhere in a document, to a clause id that no document of the domain defines. */
export function unknownClauseProblems(doc: DocInput, refs: Refs): SopProblem[] {
  const out: SopProblem[] = [];
  const seen = new Set<string>();
  eachText(doc.outline.sections, (text, line, self) => {
    for (const id of refs(text, self).unknown) {
      const key = `${line}\u0000${id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(problem("SOP_UNKNOWN_CLAUSE", `refers to clause ${id}, which no document of the domain defines`, { document: doc.meta.id, file: doc.file, line }, "error"));
    }
  });
  return out;
}

const PROCEDURE_REF = /\bprocedures?\s+`?([a-z0-9][a-z0-9_]*(?:-[a-z0-9_]+)+)`?/g;

/**
 * References to procedures by id (`the procedure payment-cancellation`: a hyphenated id after the
 * word "procedure") that no `Procedure: … {#id}` heading of the domain defines. For review: the
 * format does not define procedure references, but a dangling one is almost always a typo.
 */
export function unknownProcedureProblems(doc: DocInput, procedures: ReadonlySet<string>): SopProblem[] {
  const out: SopProblem[] = [];
  const seen = new Set<string>();
  eachText(doc.outline.sections, (text, line) => {
    for (const m of text.matchAll(PROCEDURE_REF)) {
      const id = m[1] as string;
      const key = `${line}\u0000${id}`;
      if (procedures.has(id) || seen.has(key)) continue;
      seen.add(key);
      out.push(problem("SOP_UNKNOWN_PROCEDURE", `refers to procedure ${id}, which no \`Procedure: … {#${id}}\` heading of the domain defines`, { document: doc.meta.id, file: doc.file, line }, "review"));
    }
  });
  return out;
}
