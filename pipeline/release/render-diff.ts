import type { ReleaseDiff, EventDiff } from "./diff-releases.js";
import type { ValueChange } from "./value-diff.js";

const MAX_CHANGES = 8;

function show(v: unknown): string {
  const s = v === undefined ? "(none)" : JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

/** `args.amount 5000 → 6000`, `+ memo "x"`, `- reason "…"`. */
export function describeChange(c: ValueChange): string {
  if (c.type === "CREATE") return `+ ${c.path} ${show(c.new)}`;
  if (c.type === "REMOVE") return `- ${c.path} ${show(c.old)}`;
  return `${c.path} ${show(c.old)} → ${show(c.new)}`;
}

function changeList(changes: readonly ValueChange[]): string {
  const shown = changes.slice(0, MAX_CHANGES).map(describeChange).join("; ");
  return changes.length > MAX_CHANGES ? `${shown}; … ${changes.length - MAX_CHANGES} more` : shown;
}

function eventLine(e: EventDiff): string {
  if (e.change === "added") return `event ${e.index} (${e.name}) only in B`;
  if (e.change === "removed") return `event ${e.index} (${e.name}) only in A`;
  return `event ${e.index} (${e.name}): ${changeList(e.changes)}`;
}

function counts(x: { added: unknown[]; removed: unknown[]; changed: unknown[] }): string {
  return `${x.added.length} added, ${x.removed.length} removed, ${x.changed.length} changed`;
}

/** A readable summary of a release diff, one item per line. */
export function renderDiff(d: ReleaseDiff): string {
  const out = [
    `A: ${d.a.name} ${d.a.version} (root ${d.a.root_hash.slice(0, 12)})`,
    `B: ${d.b.name} ${d.b.version} (root ${d.b.root_hash.slice(0, 12)})`,
  ];
  if (d.identical) return [...out, "identical: same root hash, same files", ""].join("\n");
  out.push(`files: ${counts(d.files)}`);
  out.push(`tasks: ${counts(d.tasks)}`);
  for (const t of d.tasks.added) out.push(`  + ${t.domain}/${t.task}`);
  for (const t of d.tasks.removed) out.push(`  - ${t.domain}/${t.task}`);
  for (const t of d.tasks.changed) {
    const parts = [];
    if (t.fields.length) parts.push(`${t.fields.length} field change(s)`);
    const nChecks = t.checks.added.length + t.checks.removed.length + t.checks.changed.length;
    if (nChecks) parts.push(`${nChecks} check change(s)`);
    if (t.golden) parts.push(`golden events ${t.golden.events.map((e) => e.index).join(", ") || "none"} differ`);
    out.push(`  ~ ${t.domain}/${t.task}: ${parts.join("; ")}`);
    for (const c of t.fields.slice(0, MAX_CHANGES)) out.push(`      ${describeChange(c)}`);
    if (t.fields.length > MAX_CHANGES) out.push(`      … ${t.fields.length - MAX_CHANGES} more`);
    for (const e of t.golden?.events ?? []) out.push(`      golden ${eventLine(e)}`);
    if (t.golden?.trace.length) out.push(`      golden trace: ${changeList(t.golden.trace)}`);
  }
  out.push(`documents: ${counts(d.documents)}`);
  for (const k of d.documents.added) out.push(`  + ${k}`);
  for (const k of d.documents.removed) out.push(`  - ${k}`);
  for (const k of d.documents.changed) out.push(`  ~ ${k}`);
  out.push(`checks: ${counts(d.checks)}`);
  for (const c of d.checks.added) out.push(`  + ${c.domain}/${c.task}/${c.check} (${c.group})`);
  for (const c of d.checks.removed) out.push(`  - ${c.domain}/${c.task}/${c.check} (${c.group})`);
  for (const c of d.checks.changed) out.push(`  ~ ${c.domain}/${c.task}/${c.check} (${c.group}): ${changeList(c.changes)}`);
  for (const w of d.warnings) out.push(`warning: ${w.release.toUpperCase()} ${w.file}: ${w.reason}`);
  out.push("");
  return out.join("\n");
}
