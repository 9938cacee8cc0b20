import type { DraftOperation, Pending } from "./draft-operations.js";
import { sameWord, words } from "./text.js";

/**
 * Approvals between operations: a function that "returns a proposal id" (or sends something "for
 * approval / acceptance / consent") proposes its parameters as terms; a function that "needs the
 * client's approval", works "exactly as approved" or "applies a signed request" requires them; a
 * customer action with a `proposal_id` approves. Proposer and consumer pair up by their
 * parameters, the approving action by name (or by being named in their text).
 */

const PROPOSES = /proposal[ _]id|proposal number|returns? (?:the terms and )?a proposal|for (?:approval|acceptance|consent|signature|agreement)|portal for acceptance|to the (?:client|customer)(?:'s [a-z ]+)? for approval|for the (?:client|customer|patient)'s (?:approval|consent)/i;
const REQUIRES = /needs the [a-z' ]*?(?:approval|acceptance|agreement|authori[sz]ation|consent|signature)|exactly as (?:approved|accepted|authori[sz]ed|agreed|signed)|applies a signed|signed request|agreement to a proposal|approved proposal/i;
const VERB = /^(?:propose|offer|request|send|submit|put)_/;

function kindOf(proposer: string): string {
  return proposer.replace(VERB, "") || proposer;
}

const overlap = (a: string, b: string) => words(a.replace(/_/g, " ")).filter((w) => w.length > 2 && words(b.replace(/_/g, " ")).some((x) => sameWord(w, x))).length;

/** Add `proposes`, `requires_approval` and `approves` (see the module comment); what does not pair up is a review item. */
export function draftApprovals(ops: DraftOperation[], review: Pending[]): void {
  const approvers = ops.filter((o) => o.side === "customer" && "proposal_id" in o.params);
  const proposers = ops.filter((o) => o.side === "agent" && o.access === "write" && PROPOSES.test(o.fn.text));
  const consumers = ops.filter((o) => o.side === "agent" && o.access === "write" && !proposers.includes(o) && REQUIRES.test(o.fn.text));
  const used = new Set<DraftOperation>();
  for (const p of proposers) {
    const terms = Object.keys(p.params);
    const kind = kindOf(p.name);
    if (terms.length === 0) {
      review.push({ kind: "approval", subject: `operation ${p.name}`, what: `${p.name} proposes something for approval, but the manual gives it no parameters to bind the approval to: add its params and proposes: { kind: ${kind}, terms: [...] }`, where: [{ file: p.fn.file, line: p.fn.line, text: p.fn.description }] });
      continue;
    }
    p.proposes = { kind, terms: [...terms] };
    const c = consumers.find((x) => terms.every((t) => t in x.params)) ?? null;
    if (c) c.requires_approval = { kind, terms: [...terms] };
    const named = approvers.find((a) => !used.has(a) && (p.fn.text.includes(`\`${a.name}\``) || (c?.fn.text.includes(`\`${a.name}\``) ?? false)));
    const scored = approvers.filter((a) => !used.has(a)).map((a) => ({ a, s: overlap(`${a.name} ${a.description}`, `${p.name} ${c?.name ?? ""}`) })).sort((x, y) => y.s - x.s);
    const approver = named ?? (scored[0] && scored[0].s > 0 ? scored[0].a : null);
    if (approver) {
      approver.approves = kind;
      approver.description = `The customer approves one proposed ${kind.replace(/_/g, " ")} (exactly the proposed terms).`;
      used.add(approver);
    } else review.push({ kind: "approval", subject: `operation ${p.name}`, what: `${p.name} proposes ${kind}, but no customer action of the manual approves it: add one (side: customer, params: { proposal_id }, approves: ${kind})`, where: [{ file: p.fn.file, line: p.fn.line, text: p.fn.description }] });
  }
  for (const c of consumers) {
    if (!c.requires_approval) review.push({ kind: "approval", subject: `operation ${c.name}`, what: `${c.name} needs the customer's approval, but no operation proposes its exact terms: add the proposing operation (proposes: { kind, terms }) and requires_approval here`, where: [{ file: c.fn.file, line: c.fn.line, text: c.fn.description }] });
  }
  for (const a of approvers) {
    if (a.approves === undefined) {
      review.push({ kind: "approval", subject: `operation ${a.name}`, what: `customer action ${a.name} approves no proposal the drafter could pair it with: set approves: <kind of the proposing operation>`, where: [{ file: a.fn.file, line: a.fn.line, text: a.fn.description }] });
    }
  }
}
