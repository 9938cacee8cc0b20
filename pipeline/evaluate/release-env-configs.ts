import { EnvConfigFile, EnvConfigShared, type EnvConfig } from "../schemas/index.js";
import { FoundryError } from "../core/errors.js";
import { sha256 } from "../core/canonical-json.js";
import { joinEnvConfig } from "../world/env-config/env-config-parts.js";
import type { ReleaseFiles } from "../../validation/audit/verify-integrity.js";
import { envConfigFile, envSharedFile } from "../../validation/audit/release-layout.js";

type Problem = { file: string; reason: string };

const KEPT_SHARED = 8;

/**
 * The environment configurations of a release as the evaluator reads them: every task's file and
 * every shared part is checked once when the release is loaded (a malformed one refuses the release
 * before any episode runs), then let go; an episode's configuration is read again (its bytes checked
 * against the manifest by ReleaseFiles) and joined when the episode needs it. Memory holds a few
 * shared parts, not a configuration per task.
 */
export class ReleaseEnvConfigs {
  private readonly shared = new Map<string, EnvConfigShared>();
  private readonly checkedShared = new Set<string>();

  constructor(private readonly contents: ReleaseFiles) {}

  /**
   * Whether the release ships a configuration for the task; a malformed file, or a shared part that
   * is missing, malformed or not filed under its sha256, is a problem (each named by its file).
   */
  check(domain: string, task: string, problems: Problem[]): boolean {
    const file = envConfigFile(domain, task);
    if (!this.contents.has(file)) return false;
    const config = this.parse(file, EnvConfigFile, problems);
    if (!config) return false;
    if (config.domain !== domain || config.task !== task) {
      problems.push({ file, reason: `not the environment configuration of ${domain}/${task} (it is ${config.domain}/${config.task})` });
      return false;
    }
    if (this.checkedShared.has(config.shared)) return true;
    const shared = this.readShared(domain, config.shared, problems);
    if (shared) this.checkedShared.add(config.shared);
    return shared !== null;
  }

  /** The task's configuration, its file joined with its shared part (both checked by `check` first). */
  load(domain: string, task: string): EnvConfig {
    const problems: Problem[] = [];
    const file = this.parse(envConfigFile(domain, task), EnvConfigFile, problems);
    const shared = file ? (this.shared.get(file.shared) ?? this.readShared(domain, file.shared, problems)) : null;
    if (!file || !shared) throw new FoundryError("RELEASE_TAMPERED", `refusing to evaluate: ${problems[0]?.reason ?? "unreadable environment configuration"}`, { file: problems[0]?.file ?? envConfigFile(domain, task) });
    return joinEnvConfig(file, shared);
  }

  private readShared(domain: string, hash: string, problems: Problem[]): EnvConfigShared | null {
    const file = envSharedFile(domain, hash);
    const bytes = this.contents.get(file);
    if (!bytes) {
      problems.push({ file, reason: "a task's environment configuration names this shared part, and the release does not hold it" });
      return null;
    }
    if (sha256(bytes) !== hash) {
      problems.push({ file, reason: `is not filed under its sha256 (${sha256(bytes)})` });
      return null;
    }
    const shared = this.parse(file, EnvConfigShared, problems, bytes);
    if (!shared) return null;
    if (this.shared.size >= KEPT_SHARED) this.shared.delete(this.shared.keys().next().value as string);
    this.shared.set(hash, shared);
    return shared;
  }

  private parse<T extends typeof EnvConfigFile | typeof EnvConfigShared>(file: string, schema: T, problems: Problem[], bytes = this.contents.get(file)): import("zod").infer<T> | null {
    if (!bytes) {
      problems.push({ file, reason: "required file is missing from the release" });
      return null;
    }
    try {
      return schema.parse(JSON.parse(bytes.toString("utf8"))) as import("zod").infer<T>;
    } catch (e) {
      problems.push({ file, reason: `not an environment configuration: ${(e as Error).message.split("\n")[0]}` });
      return null;
    }
  }
}
