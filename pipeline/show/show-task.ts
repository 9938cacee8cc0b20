import { FoundryError } from "../core/errors.js";
import { openShowRelease, type OpenOptions } from "./open-release.js";
import { buildTaskView, findTask } from "./build-task-view.js";
import type { TaskView } from "./task-view.js";

/** The review view of a released task on its golden trace (the release verified first: see `openShowRelease` for a failing one). */
export function showReleaseTask(releaseArg: string, taskId: string, releasesRoot?: string, opts: OpenOptions = {}): TaskView {
  const release = openShowRelease(releaseArg, releasesRoot, opts);
  const { domain, task } = findTask(release, taskId);
  const golden = domain.parsed.golden.get(task.id);
  if (!golden) throw new FoundryError("RELEASE_INVALID", `task ${task.id} has no golden trace in the release`, { file: release.dir }, task.id);
  return buildTaskView(release, domain, task, golden);
}
