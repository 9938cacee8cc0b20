import { EnvConfig, type Task } from "../../pipeline/schemas/index.js";
import { validateAgainst } from "../../pipeline/core/schema-issues.js";
import { applyOverlay } from "../../pipeline/world/build-state.js";
import { hiddenLeaksOf } from "../../pipeline/world/env-config/hidden-values.js";
import { canonicalJson, sha256 } from "../../pipeline/core/canonical-json.js";
import type { AuditDomain } from "./audit-task.js";
import { envConfigFile, ENV_CONFIGS_DIR, domainFile } from "./release-layout.js";
import type { FileFailure, ReleaseFiles } from "./verify-integrity.js";

/**
 * The environment configuration of one released task: present, schema-valid, about this task, and
 * holding no value of a hidden column (hidden-values.ts, on the task's initial state). Each
 * problem names the file.
 */
export function checkEnvConfig(contents: ReleaseFiles, ctx: AuditDomain, task: Task, problems: FileFailure[]): void {
  const file = envConfigFile(ctx.id, task.id);
  const bytes = contents.get(file);
  if (!bytes) {
    problems.push({ file, reason: "the released task has no environment configuration (required file is missing from the release)" });
    return;
  }
  let data: unknown;
  try {
    data = JSON.parse(bytes.toString("utf8"));
  } catch (e) {
    problems.push({ file, reason: `not valid JSON: ${(e as Error).message}` });
    return;
  }
  const r = validateAgainst(EnvConfig, data, { file });
  if (!r.ok) {
    for (const i of r.issues.slice(0, 5)) problems.push({ file, reason: `schema: ${i.path ? `${i.path}: ` : ""}${i.message}` });
    return;
  }
  if (r.value.task !== task.id || r.value.domain !== ctx.id) {
    problems.push({ file, reason: `is the configuration of ${r.value.domain}/${r.value.task}, not of ${ctx.id}/${task.id}` });
    return;
  }
  const key = `overlay:${ctx.base.hash}:${sha256(canonicalJson(task.initial_state))}`;
  for (const l of hiddenLeaksOf(r.value, ctx.compiled, key, () => applyOverlay(ctx.base, ctx.compiled.world, task.initial_state))) {
    const reason =
      l.value === null ? `lists the hidden column ${l.table}.${l.column} (${l.where})` : l.value === l.column ? `names the hidden column ${l.table}.${l.column} (in ${l.where})` : `holds a value of the hidden column ${l.table}.${l.column} (${JSON.stringify(l.value)}, in ${l.where})`;
    problems.push({ file, reason });
  }
}

/** Environment configurations filed for tasks the release does not hold. */
export function strayEnvConfigs(contents: ReleaseFiles, domain: string, held: ReadonlySet<string>): FileFailure[] {
  const prefix = domainFile(domain, `${ENV_CONFIGS_DIR}/`);
  return [...contents.keys()]
    .filter((p) => p.startsWith(prefix) && !held.has(p.slice(prefix.length, -".json".length)))
    .map((file) => ({ file, reason: "environment configuration of a task the release does not hold" }));
}
