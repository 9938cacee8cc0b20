import type { DocumentScope } from "../schemas/document-front-matter.js";
import type { ApplicabilityStatus, Sop, SopDocument, SopRule } from "../schemas/sop.js";

/** A task's customer: each attribute optional (an unknown attribute excludes nothing). */
export interface CustomerAttributes {
  segment?: string | null;
  region?: string | null;
  product?: string | null;
}

/**
 * The customers in question, as sets of possible values per axis; `undefined` on an axis means
 * "unknown: any value". A task's customer is the one-value case; a domain's default profile lists
 * every value its customers can have.
 */
export interface CustomerProfile {
  segments?: readonly string[];
  regions?: readonly string[];
  products?: readonly string[];
}

/** The fields of a document version that decide its applicability. */
export type DocumentVersion = Pick<SopDocument, "id" | "version" | "effective_from" | "effective_to" | "scope" | "supersedes">;

export interface VersionVerdict {
  document: string;
  version: string;
  status: ApplicabilityStatus;
  reason: string;
}

/** Compare versions `3`, `3.1`, `3.1.2` numerically. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The profile of one customer. */
export function profileOf(c: CustomerAttributes): CustomerProfile {
  const one = (v: string | null | undefined) => (v === undefined || v === null || v === "" ? undefined : [v]);
  return { segments: one(c.segment), regions: one(c.region), products: one(c.product) };
}

const AXES = [
  ["segments", "segment"],
  ["regions", "region"],
  ["products", "product"],
] as const;

/** Why `scope` does not cover `profile`, or null when it does (case-insensitive; empty lists restrict nothing). */
export function scopeMismatch(scope: DocumentScope, profile: CustomerProfile): string | null {
  for (const [axis, word] of AXES) {
    const allowed = scope[axis] ?? [];
    const have = profile[axis];
    if (allowed.length === 0 || have === undefined) continue;
    const lower = new Set(allowed.map((v) => v.toLowerCase()));
    if (!have.some((v) => lower.has(v.toLowerCase()))) {
      return `its scope ${axis} [${allowed.join(", ")}] does not cover ${word} ${have.map((v) => `'${v}'`).join(" or ")}`;
    }
  }
  return null;
}

/** `w` is newer than `d`: later `effective_from`, or the same and a higher version. */
function isNewer(w: DocumentVersion, d: DocumentVersion): boolean {
  return w.effective_from > d.effective_from || (w.effective_from === d.effective_from && compareVersions(w.version, d.version) > 0);
}

function names(d: DocumentVersion): string {
  return `${d.id}@${d.version}`;
}

/**
 * Judge every document version for a date and a customer profile, deterministically:
 * not yet effective (starts after the date), expired (ended before it: superseded), out of scope,
 * explicitly superseded by a version in force and in scope, or replaced by a newer version of the
 * same id in force and in scope (latest `effective_from`, then highest version wins).
 */
export function judgeDocumentVersions(docs: readonly DocumentVersion[], ctx: { date: string; customer: CustomerProfile }): VersionVerdict[] {
  const verdicts = new Map<DocumentVersion, VersionVerdict>();
  const candidates: DocumentVersion[] = [];
  for (const d of docs) {
    const v = (status: ApplicabilityStatus, reason: string) => verdicts.set(d, { document: d.id, version: d.version, status, reason });
    const mismatch = scopeMismatch(d.scope, ctx.customer);
    if (d.effective_from > ctx.date) v("not_yet_effective", `takes effect on ${d.effective_from}, after ${ctx.date}`);
    else if (d.effective_to !== null && d.effective_to < ctx.date) v("superseded", `ceased to apply after ${d.effective_to}, before ${ctx.date}`);
    else if (mismatch) v("out_of_scope", mismatch);
    else candidates.push(d);
  }
  for (const d of candidates) {
    const by = candidates.find((w) => w !== d && (w.supersedes.includes(names(d)) || (w.supersedes.includes(d.id) && (w.id !== d.id || isNewer(w, d)))));
    if (by) {
      verdicts.set(d, { document: d.id, version: d.version, status: "superseded", reason: `superseded by ${names(by)}` });
      continue;
    }
    const newer = candidates.find((w) => w !== d && w.id === d.id && isNewer(w, d));
    if (newer) verdicts.set(d, { document: d.id, version: d.version, status: "superseded", reason: `${names(newer)} is the newer version in force` });
    else verdicts.set(d, { document: d.id, version: d.version, status: "current", reason: `in force on ${ctx.date} and in scope` });
  }
  return docs.map((d) => verdicts.get(d) as VersionVerdict);
}

/** A rule that does not apply to the task, and why (visible to the agent, never to be followed). */
export interface Distractor {
  rule: SopRule;
  status: Exclude<ApplicabilityStatus, "current">;
  reason: string;
}

export interface RuleSelection {
  date: string;
  customer: CustomerAttributes;
  /** One version of each applicable clause, in the order of `rules`. */
  applicable: SopRule[];
  distractors: Distractor[];
  documents: VersionVerdict[];
}

function versionsOf(sop: Pick<Sop, "documents" | "rules">): DocumentVersion[] {
  if (sop.documents.length > 0) return sop.documents;
  // SOP files without a document list: rebuild the versions from the rules (no `supersedes` known).
  const seen = new Map<string, DocumentVersion>();
  for (const r of sop.rules) {
    const key = `${r.document}@${r.version}`;
    if (!seen.has(key)) seen.set(key, { id: r.document, version: r.version, effective_from: r.effective_from, effective_to: r.effective_to, scope: r.scope, supersedes: [] });
  }
  return [...seen.values()];
}

/**
 * Choose the applicable version of every document, and so of every clause, for a task's date and
 * customer; every other rule comes back as a distractor with its reason.
 */
export function selectRules(sop: Pick<Sop, "documents" | "rules">, ctx: { date: string; customer: CustomerAttributes }): RuleSelection {
  const docs = versionsOf(sop);
  const verdicts = judgeDocumentVersions(docs, { date: ctx.date, customer: profileOf(ctx.customer) });
  const byKey = new Map(verdicts.map((v) => [`${v.document}@${v.version}`, v]));
  const applicable: SopRule[] = [];
  const distractors: Distractor[] = [];
  for (const r of sop.rules) {
    const v = byKey.get(`${r.document}@${r.version}`);
    if (!v) distractors.push({ rule: r, status: "out_of_scope", reason: `document ${r.document}@${r.version} is not among the domain's documents` });
    else if (v.status === "current") applicable.push(r);
    else distractors.push({ rule: r, status: v.status, reason: v.reason });
  }
  return { date: ctx.date, customer: ctx.customer, applicable, distractors, documents: verdicts };
}
