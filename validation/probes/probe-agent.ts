import type { Param, SopRule, SopWorkflow, Task, Trace, WorldModel } from "../../pipeline/schemas/index.js";
import type { DomainContext } from "../../pipeline/world/domain-context.js";
import { profileOf } from "../../pipeline/sop/select-rules.js";
import { EpisodeDriver, type ActionStep } from "../episode-driver.js";
import type { EpisodeAction } from "../episode-actions.js";
import type { KnowledgeDocument } from "../../pipeline/world/documents-tool.js";
import type { CustomerProfile } from "../../pipeline/sop/select-rules.js";
import { Bindings } from "./bindings.js";
import { evaluate, type ConditionEnv } from "./conditions.js";
import { chooseVersions, readSop, type ReadSop } from "./read-documents.js";
import type { ProbeStyle } from "./probe-style.js";
import { agentView, type AgentView, type VisibleOperation } from "./visible-world.js";
import { invented, numbersIn, valueIn } from "./values.js";
import { overlap } from "./words.js";
import { requestedWork } from "./identify-procedures.js";

export { identifyProcedures } from "./identify-procedures.js";

/** Minutes a probe waits before retrying a call refused as pending; and how often it retries. */
const RETRY_WAIT = 15;
const MAX_RETRIES = 6;
/** Upper bound of actions in one probe episode (a walk that loops stops here). */
const MAX_ACTIONS = 120;
// What a probe writes into a free-text parameter that is its own choice (a note, a comment).
const AGENT_TEXT = "Recorded as requested by the customer.";
const RETRIABLE = /pending|expired|not yet|try again|later/i;
const MONEY = /(?:EUR|USD|GBP|CHF)\s*([\d,]+(?:\.\d+)?)|([\d,]+(?:\.\d+)?)\s*(?:EUR|USD|GBP|CHF|%|percent)/;

/** One probe episode in progress: what it knows, what it last saw, and whether it gave up. */
class Probe {
  readonly bind = new Bindings();
  readonly env: ConditionEnv;
  rules: SopRule[] = [];
  gaveUp = false;
  lastProposal: string | null = null;
  actions = 0;
  /** Procedures walked so far in this episode. */
  walked = 0;

  constructor(
    readonly view: AgentView,
    readonly style: ProbeStyle,
  ) {
    this.env = { state: this.bind.state, last: null, approved: null };
  }

  /** One action, handed to whoever drives the probe (ProbeWork); its step comes back (null once the episode is over). */
  *do(action: EpisodeAction): ProbeWork<ActionStep | null> {
    if (++this.actions > MAX_ACTIONS) {
      this.gaveUp = true;
      return null;
    }
    return yield action;
  }

  /** Read-only calls whose parameters are all known, until the customer's attributes are known. */
  *discover(): ProbeWork {
    const done = new Set<string>();
    for (let round = 0; round < 3 && this.bind.attributes === null; round++) {
      for (const op of this.view.operations.values()) {
        if (op.side !== "agent" || op.access !== "read" || this.bind.attributes !== null) continue;
        const entries = Object.entries(op.params).filter(([, p]) => p.required);
        if (entries.length === 0 || !entries.every(([n, p]) => this.bind.known(n, p) !== undefined)) continue;
        const args = Object.fromEntries(entries.map(([n, p]) => [n, this.bind.known(n, p)]));
        const key = `${op.name}${JSON.stringify(args)}`;
        if (done.has(key)) continue;
        done.add(key);
        const step = yield* this.do({ type: "call", name: op.name, args });
        if (step?.outcome?.status === "executed") this.bind.absorb(step.outcome.result, this.view);
      }
    }
  }

  /** Ask the customer for a parameter, naming it in the words of its description. */
  *askFor(name: string, p: Param): ProbeWork<unknown> {
    const phrase = p.description.replace(/\.$/, "");
    const step = yield* this.do({ type: "ask", text: `Could you please tell me the ${phrase.charAt(0).toLowerCase()}${phrase.slice(1)}?` });
    const v = step?.reply ? valueIn(step.reply, p) : undefined;
    if (v !== undefined) this.bind.customer.set(name, v);
    return v;
  }

  /** A value the applicable clauses state for a parameter (`fee` → "the release fee … is EUR 15.00"). */
  fromDocuments(name: string, p: Param): unknown {
    if (p.type !== "number" && p.type !== "integer") return undefined;
    const words = name.split("_");
    for (const r of this.rules) {
      const text = r.statement.toLowerCase();
      if (!words.every((w) => text.includes(w))) continue;
      const m = MONEY.exec(r.statement);
      if (m) return numbersIn((m[1] ?? m[2]) as string)[0];
    }
    return undefined;
  }

  *args(op: VisibleOperation): ProbeWork<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const [name, p] of Object.entries(op.params)) {
      let v = this.bind.known(name, p);
      if (v === undefined && p.source === "customer") {
        if (this.style.asks) v = yield* this.askFor(name, p);
        else this.bind.customer.set(name, (v = invented(p)));
      }
      if (v === undefined && p.source === "agent") v = this.fromDocuments(name, p) ?? (p.type === "string" ? AGENT_TEXT : undefined);
      if (v !== undefined) out[name] = v;
    }
    return out;
  }

  /** Call an operation; on a refusal, wait and retry (pending) or obtain the missing approval, unless the style gives up. */
  *call(name: string, hint = ""): ProbeWork {
    const op = this.view.operations.get(name);
    if (!op || op.side !== "agent") return;
    const args = yield* this.args(op);
    let retries = 0;
    let approvalTried = false;
    for (;;) {
      const step = yield* this.do({ type: "call", name, args });
      if (!step) return;
      const o = step.outcome;
      const error = (o?.result as { error?: { code?: string; message?: string } } | null)?.error;
      this.env.last = { status: o?.status ?? "errored", result: o?.result ?? null, reason: `${o?.reason ?? ""} ${error?.message ?? ""}` };
      if (o?.status === "executed") {
        this.bind.absorb(o.result, this.view, hint);
        if (op.proposes) this.lastProposal = name;
        return;
      }
      if (!this.style.recheck) {
        this.gaveUp = true;
        return;
      }
      if (RETRIABLE.test(this.env.last.reason) && retries < MAX_RETRIES) {
        retries++;
        if (!(yield* this.do({ type: "wait", minutes: RETRY_WAIT }))) return;
        continue;
      }
      if (error?.code === "approval_required" && op.requires_approval && !approvalTried) {
        approvalTried = true;
        if (yield* this.obtainApproval(op, args)) continue;
      }
      return;
    }
  }

  /** Propose the exact terms with the operation that proposes that kind, and ask the customer to approve. */
  *obtainApproval(op: VisibleOperation, args: Record<string, unknown>): ProbeWork<boolean> {
    const kind = op.requires_approval?.kind;
    const proposer = [...this.view.operations.values()].find((o) => o.side === "agent" && o.proposes?.kind === kind);
    if (!proposer) return false;
    const terms = Object.fromEntries(Object.keys(proposer.params).filter((k) => k in args).map((k) => [k, args[k]]));
    const step = yield* this.do({ type: "call", name: proposer.name, args: { ...(yield* this.args(proposer)), ...terms } });
    if (step?.outcome?.status !== "executed") return false;
    const approval = yield* this.do({ type: "approve", proposal_of: proposer.name, proposal_id: null });
    this.env.approved = approval?.outcome?.status === "executed";
    if (this.env.approved && this.corrected(approval?.reply ?? null, proposer)) {
      // The customer changed a term right after approving: the executed terms follow the correction.
      for (const k of Object.keys(args)) if (this.bind.customer.has(k)) args[k] = this.bind.customer.get(k);
      return yield* this.obtainApproval(op, args);
    }
    return this.env.approved;
  }

  /**
   * A correction the customer made right after approving (`the corrected customs value must be
   * 14768.00, not 14200.00`): each customer-given term of the proposal the reply names by its words
   * takes the value stated; true when a term changed (the new terms need their own approval).
   */
  corrected(reply: string | null, proposer: VisibleOperation): boolean {
    if (!reply) return false;
    let changed = false;
    for (const [name, p] of Object.entries(proposer.params)) {
      if (p.source !== "customer" || overlap(name.replace(/_/g, " "), reply).count < name.split("_").length) continue;
      const v = valueIn(reply, p);
      if (v !== undefined && JSON.stringify(v) !== JSON.stringify(this.bind.customer.get(name))) {
        this.bind.customer.set(name, v);
        changed = true;
      }
    }
    return changed;
  }

  /** The customer-sourced parameter an `Ask the client for …` step is about. */
  *askStep(w: SopWorkflow, text: string): ProbeWork {
    const candidates = w.steps
      .flatMap((s) => (s.operation ? Object.entries(this.view.operations.get(s.operation)?.params ?? {}) : []))
      .filter(([n, p]) => p.source === "customer" && !this.bind.customer.has(n))
      .map(([n, p]) => ({ n, p, score: overlap(`${n.replace(/_/g, " ")} ${p.description}`, text).count }))
      .filter((c) => c.score > 0)
      .sort((a, b) => b.score - a.score);
    const best = candidates[0];
    if (best) yield* this.askFor(best.n, best.p);
  }

  *walk(w: SopWorkflow): ProbeWork {
    if (this.style.steps === "final_write") {
      const last = [...w.steps].reverse().find((s) => s.operation && this.view.operations.get(s.operation)?.side === "agent" && this.view.operations.get(s.operation)?.access === "write");
      if (last?.operation) yield* this.call(last.operation);
      return;
    }
    const at = new Map(w.steps.map((s, i) => [s.id, i]));
    let i = 0;
    for (let guard = 0; i < w.steps.length && guard < 60 && !this.gaveUp; guard++) {
      const s = w.steps[i] as SopWorkflow["steps"][number];
      if (s.actor === "customer") {
        for (let round = 0; this.lastProposal && round < 3; round++) {
          const r = yield* this.do({ type: "approve", proposal_of: this.lastProposal, proposal_id: null });
          this.env.approved = r?.outcome?.status === "executed";
          const proposer = this.view.operations.get(this.lastProposal);
          // A correction right after the approval: propose the corrected terms and ask again.
          if (!this.env.approved || !proposer || !this.corrected(r?.reply ?? null, proposer)) break;
          yield* this.call(proposer.name, `${w.title} ${s.text}`);
        }
      } else if (s.operation) yield* this.call(s.operation, `${w.title} ${s.text}`);
      else if (/^ask\b/i.test(s.text) && this.style.asks) yield* this.askStep(w, s.text);
      let next = i + 1;
      decide: for (const d of w.decisions.filter((x) => x.at_step === s.id)) {
        for (const b of d.branches) {
          if (evaluate(b.when, this.env) !== true) continue;
          next = b.goto === null ? w.steps.length : (at.get(b.goto) ?? i + 1);
          break decide;
        }
      }
      i = next;
    }
  }
}

/**
 * A probe's work as a generator: it yields each action and is sent back the action's step (null
 * once the episode is over). One probe, driven synchronously (the calibrator's episode driver,
 * thousands of runs) or asynchronously (the evaluator's session, whose simulated mode answers
 * through a model).
 */
export type ProbeWork<T = void> = Generator<EpisodeAction, T, ActionStep | null>;

/** Where a probe's actions go synchronously: an episode driver. */
export interface ProbePort {
  do(action: EpisodeAction): ActionStep | null;
}

/** Where a probe's actions go asynchronously: the evaluator's session (null once the episode is over). */
export interface AsyncProbePort {
  do(action: EpisodeAction): Promise<ActionStep | null>;
}

/** What a probe works from besides the episode: the visible world, the business date, and how it reads documents. */
export interface ProbeInputs {
  world: WorldModel;
  /** The customer's opening request. */
  request: string;
  /** The document versions the probe follows, for the customer it identified (read through the episode's tools, or given). */
  documents: (customer: CustomerProfile) => ProbeWork<KnowledgeDocument[]>;
  /** How the probe turns the documents it read into procedures and rules. Default readSop (a caller may memoize it: it is pure). */
  readSop?: (docs: readonly KnowledgeDocument[], view: AgentView) => ReadSop;
  /** Actions already taken towards the probe's action bound (the opening, when the probe made it). Default 0. */
  actionsTaken?: number;
}

/**
 * One probe episode whose opening is already in the trace: identify the customer and the
 * procedures from the request, read the versions it follows, walk each procedure. Sees only what
 * an agent can see. Drive it with `workProbe` or `workProbeAsync`.
 */
export function* probeWork(inputs: ProbeInputs, style: ProbeStyle): ProbeWork {
  const view = agentView(inputs.world);
  const probe = new Probe(view, style);
  probe.actions = inputs.actionsTaken ?? 0;
  const request = inputs.request;
  probe.bind.fromRequest(request, view);
  yield* probe.discover();
  const docs = yield* inputs.documents(profileOf(probe.bind.attributes ?? {}));
  const sop = (inputs.readSop ?? readSop)(docs, view);
  probe.rules = sop.rules;
  for (const { procedures, text } of requestedWork(sop.workflows, request)) {
    // A piece of work that names its own keys is about its own subject: turn to it (the first one
    // too: the keys the request names for later work are not this work's, e.g. a beneficiary to verify next).
    if (probe.bind.namesKeys(text, view)) probe.bind.focus(text, view);
    for (const w of procedures) {
      if (probe.gaveUp) break;
      yield* probe.walk(w);
      probe.walked++;
    }
  }
}

/** Work that takes no action and gives `value` (documents a probe is handed rather than reads). */
// eslint-disable-next-line require-yield
export function* given<T>(value: T): ProbeWork<T> {
  return value;
}

/** Drive a probe's work synchronously through `port`. */
export function workProbe(port: ProbePort, inputs: ProbeInputs, style: ProbeStyle): void {
  const work = probeWork(inputs, style);
  for (let next = work.next(); !next.done; next = work.next(port.do(next.value)));
}

/** Drive a probe's work through an asynchronous `port` (the same actions, awaited one at a time). */
export async function workProbeAsync(port: AsyncProbePort, inputs: ProbeInputs, style: ProbeStyle): Promise<void> {
  const work = probeWork(inputs, style);
  for (let next = work.next(); !next.done; next = work.next(await port.do(next.value)));
}

/**
 * Run one probe on a task: an agent that sees only what an agent can see (the customer's words, the
 * tool specs, the documents' text and dates and scope, its own results) and acts through the same
 * episode tools, with the scripted customer. Never reads checks, the reference plan, the golden
 * trace, hidden columns or preconditions.
 */
export function runProbe(ctx: DomainContext, task: Task, style: ProbeStyle): Trace {
  const driver = EpisodeDriver.open(ctx, task, { role: "probe", label: style.name });
  try {
    const request = driver.do({ type: "open" }).events[0]?.text ?? "";
    workProbe(driver, { world: ctx.world, request, actionsTaken: 1, documents: (customer) => given(chooseVersions(ctx.documents, style.versions, task.as_of, customer)) }, style);
    return driver.finish();
  } finally {
    driver.close();
  }
}
