import { describe, expect, it } from "vitest";
import { EpisodeConnection } from "../../pipeline/world/connection.js";
import { compileWorld } from "../../pipeline/world/compile-world.js";
import { configuredSqlLimits } from "../../pipeline/world/sql-guard.js";
import { fixture } from "./fixture.js";

describe("EpisodeConnection.drain", () => {
  it("closes the idle pooled connections of a state, so the next episode on it opens a new one", () => {
    const { world, state } = fixture();
    const compiled = compileWorld(world);
    const limits = configuredSqlLimits();
    const first = EpisodeConnection.acquire(state.buffer, compiled, "reuse", limits);
    first.close();
    // Pooled: the same connection comes back, still open.
    const again = EpisodeConnection.acquire(state.buffer, compiled, "reuse", limits);
    expect(again).toBe(first);
    again.close();
    EpisodeConnection.drain(state.buffer);
    expect(first.db.open).toBe(false);
    const fresh = EpisodeConnection.acquire(state.buffer, compiled, "reuse", limits);
    expect(fresh).not.toBe(first);
    expect(fresh.db.open).toBe(true);
    fresh.close();
    EpisodeConnection.drain(state.buffer);
    // Draining a state with nothing pooled does nothing.
    expect(() => EpisodeConnection.drain(state.buffer)).not.toThrow();
  });
});
