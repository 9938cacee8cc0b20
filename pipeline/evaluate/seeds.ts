import { RandomStream } from "../core/random.js";

/**
 * The seed of one episode: a fork of the evaluation seed by task, condition and run, so every
 * episode's faults (and an llm customer's sampling) are fixed by those four values alone: a rerun
 * of the same episode is identical, and adding tasks or conditions changes no other episode.
 */
export function episodeSeed(seed: number, task: string, condition: string, run: number): number {
  return new RandomStream(seed).fork("evaluate").fork(task).fork(condition).fork(`run-${run}`).int(0, 2 ** 31 - 1);
}
