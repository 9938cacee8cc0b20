import { fileURLToPath } from "node:url";
import { loadWorld } from "../../pipeline/world/load-world.js";
import { buildBaseState, type InitialState } from "../../pipeline/world/build-state.js";
import { Episode, type EpisodeOptions } from "../../pipeline/world/episode.js";
import type { WorldModel } from "../../pipeline/schemas/index.js";

/** The mini-treasury fixture world and its state built with seed 7, shared by the world tests. */
export const FIXTURE_FILE = fileURLToPath(new URL("../fixtures/world/world.yaml", import.meta.url));

let cached: { world: WorldModel; state: InitialState } | undefined;

export function fixture(): { world: WorldModel; state: InitialState } {
  if (!cached) {
    const world = loadWorld(FIXTURE_FILE, "world.yaml");
    cached = { world, state: buildBaseState(world, { seed: 7 }) };
  }
  return cached;
}

/** A fresh episode on the fixture state. */
export function openEpisode(options: EpisodeOptions = {}): Episode {
  const { world, state } = fixture();
  return Episode.open(state, world, options);
}
