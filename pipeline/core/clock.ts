/**
 * The logical clock: time in whole minutes since the start of an episode or build. Nothing in the
 * foundry reads the wall clock for anything that ends up in an artifact.
 */
export class LogicalClock {
  #now: number;

  constructor(start = 0) {
    if (!Number.isInteger(start) || start < 0) throw new RangeError(`clock start must be a whole number >= 0, got ${start}`);
    this.#now = start;
  }

  get now(): number {
    return this.#now;
  }

  /** Move forward by `minutes` (>= 0); returns the new time. */
  advance(minutes: number): number {
    if (!Number.isInteger(minutes) || minutes < 0) throw new RangeError(`clock can only advance by a whole number >= 0, got ${minutes}`);
    this.#now += minutes;
    return this.#now;
  }

  /** Jump to `t` if it is later than now (never backwards). */
  advanceTo(t: number): number {
    if (t > this.#now) this.#now = t;
    return this.#now;
  }
}

/** ISO date-time of a logical minute, anchored at an epoch date given by the domain (UTC, no wall clock). */
export function logicalToIso(epochIso: string, minute: number): string {
  const base = Date.parse(epochIso);
  if (Number.isNaN(base)) throw new RangeError(`not an ISO date-time: ${epochIso}`);
  return new Date(base + minute * 60_000).toISOString().replace(".000Z", "Z");
}
