import type { EnvConfig } from "../schemas/index.js";
import { FoundryError } from "../core/errors.js";
import { joinEnvConfig } from "../world/env-config/env-config-parts.js";
import type { FileFailure, ReleaseFiles } from "../../validation/audit/verify-integrity.js";
import { envConfigFile } from "../../validation/audit/release-layout.js";
import { readEnvConfigFile, SharedParts } from "../../validation/audit/env-config-check.js";

/**
 * The environment configurations of a release as the evaluator reads them, with the audit's
 * readers (env-config-check.ts): every task's file and every shared part is checked once when the
 * release is loaded (a malformed one refuses the release before any episode runs), then let go; an
 * episode's configuration is read again (its bytes checked against the manifest by ReleaseFiles)
 * and joined when the episode needs it. Memory holds a few shared parts per domain, not a
 * configuration per task.
 */
export class ReleaseEnvConfigs {
  private readonly shared = new Map<string, SharedParts>();

  constructor(private readonly contents: ReleaseFiles) {}

  private partsOf(domain: string): SharedParts {
    let parts = this.shared.get(domain);
    if (!parts) {
      parts = new SharedParts(this.contents, domain);
      this.shared.set(domain, parts);
    }
    return parts;
  }

  /**
   * Whether the release ships a configuration for the task (releases exported before issue 17 ship
   * none); a malformed file, or a shared part that is missing, malformed or not filed under its
   * sha256, is a problem (each named by its file).
   */
  check(domain: string, task: string, problems: FileFailure[]): boolean {
    if (!this.contents.has(envConfigFile(domain, task))) return false;
    const config = readEnvConfigFile(this.contents, domain, task, problems);
    return config !== null && this.partsOf(domain).get(config.shared, problems) !== null;
  }

  /** The task's configuration, its file joined with its shared part (both checked by `check` first). */
  load(domain: string, task: string): EnvConfig {
    const problems: FileFailure[] = [];
    const file = readEnvConfigFile(this.contents, domain, task, problems);
    const shared = file ? this.partsOf(domain).get(file.shared, problems) : null;
    if (!file || !shared) throw new FoundryError("RELEASE_TAMPERED", `refusing to evaluate: ${problems[0]?.reason ?? "unreadable environment configuration"}`, { file: problems[0]?.file ?? envConfigFile(domain, task) });
    return joinEnvConfig(file, shared);
  }
}
