import type { FoundryConfig } from "../core/config.js";
import { localEpisodes, type EpisodeRunner } from "../evaluate/episode-batch.js";
import { PostgresBackend } from "./postgres/postgres-backend.js";
import { postgresEpisodes } from "./postgres/eval-coordinator.js";
import { postgresBuild } from "./postgres/build-coordinator.js";
import { embeddedBuild, type BuildBackend } from "../build/build-backend.js";

/** Where evaluations and builds keep their state and run their items: the one choice between the two backends. */
export interface Backend {
  readonly kind: FoundryConfig["backend"];
  /** How an evaluation's episodes run. */
  readonly episodes: EpisodeRunner;
  /** How a build checkpoints and runs its task slots. */
  readonly build: BuildBackend;
  close(): Promise<void>;
}

/**
 * The backend the configuration names (`--backend`, FOUNDRY_BACKEND, `backend`). embedded: today's
 * single process (SQLite checkpoints and cache, episodes on a p-queue). postgres: connects first, so
 * an unreachable database, a wrong password or a missing database stops the command before any work.
 */
export async function openBackend(config: FoundryConfig, log: (line: string) => void = (l) => process.stderr.write(`${l}\n`)): Promise<Backend> {
  if (config.backend === "embedded") return { kind: "embedded", episodes: localEpisodes, build: embeddedBuild, close: async () => undefined };
  const pg = await PostgresBackend.open(config, log);
  return { kind: "postgres", episodes: postgresEpisodes(pg), build: postgresBuild(pg, config), close: () => pg.close() };
}
