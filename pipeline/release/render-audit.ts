import type { AuditReport } from "../../validation/audit/audit-release.js";

/** A readable audit report: every failing file, then one line per task, then the verdict. */
export function renderAudit(r: AuditReport): string {
  const out: string[] = [];
  if (r.release) out.push(`release ${r.release.name} ${r.release.version} (root ${r.release.root_hash.slice(0, 12)})`);
  for (const f of r.hash_failures) out.push(`${f.file}: ${f.reason}`);
  if (r.hash_failures.length > 0) out.push("refused: the files do not match the manifest; nothing was replayed");
  for (const p of r.problems) out.push(`${p.file}: ${p.reason}`);
  for (const t of r.per_task) {
    const killed = t.mutants.filter((m) => m.killed).length;
    const mut = t.mutants.length ? `, violation traces ${killed}/${t.mutants.length} killed` : "";
    const golden = t.golden.passed ? `golden ok (${t.golden.checks_total} checks)` : "golden FAILED";
    out.push(`${t.ok ? "ok  " : "FAIL"} ${t.domain}/${t.task}: ${golden}${mut}`);
    for (const m of t.golden.mismatches) out.push(`       replay: ${m}`);
    for (const c of t.golden.failed_checks) out.push(`       check ${c.check}: ${c.reason}`);
    for (const m of t.mutants.filter((x) => !x.ok)) out.push(`       ${m.file}: ${m.reason}`);
    if (t.mutants_not_stored.length) out.push(`       not re-run (no stored trace): ${t.mutants_not_stored.join(", ")}`);
  }
  for (const t of r.simulated?.per_task ?? []) out.push(`${t.ok ? "ok  " : "FAIL"} ${t.domain}/${t.task}: simulated-only, ${t.criteria} rubric criteria re-voted (not replayed: no world)`);
  out.push(
    `${r.ok ? "ok" : "FAILED"}: ${r.golden_passed} of ${r.tasks} golden traces pass; violation traces ${r.mutants.killed} of ${r.mutants.total} killed` +
      (r.simulated ? `; ${r.simulated.per_task.filter((t) => t.ok).length} of ${r.simulated.tasks} simulated-only tasks check out` : "") +
      (r.mutants.not_stored ? ` (${r.mutants.not_stored} recorded without a stored trace)` : "") +
      `; ${r.hash_failures.length} file failure(s), ${r.problems.length} problem(s)`,
  );
  return `${out.join("\n")}\n`;
}
