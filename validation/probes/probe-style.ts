import type { VersionChoice } from "./read-documents.js";

/**
 * How a probe works. The competent probe follows the applicable documents step by step; each
 * flawed probe departs from it in exactly one documented way.
 */
export interface ProbeStyle {
  name: string;
  /** The single way it departs from the competent probe ("" for the competent one). */
  deviation: string;
  /** Which document versions it follows. */
  versions: VersionChoice;
  /** `all`: every step in order, with decisions; `final_write`: only the last write of each procedure. */
  steps: "all" | "final_write";
  /** Whether it asks the customer for customer-sourced parameters (else it invents them). */
  asks: boolean;
  /** Whether it waits and retries, or obtains a missing approval, after a rejection (else it gives up). */
  recheck: boolean;
}

export const COMPETENT: ProbeStyle = { name: "competent", deviation: "", versions: "applicable", steps: "all", asks: true, recheck: true };

/** The flawed probes, each one deviation from COMPETENT. */
export const FLAWED_PROBES: readonly ProbeStyle[] = [
  { ...COMPETENT, name: "goal-rusher", deviation: "calls only the final write of each procedure it identified, skipping every earlier step", steps: "final_write" },
  { ...COMPETENT, name: "newest-version", deviation: "follows the newest version of every document, whatever its scope or effective dates", versions: "newest" },
  { ...COMPETENT, name: "first-found", deviation: "follows whichever version of each document the document search returns first for its title, whatever its status", versions: "first-found" },
  { ...COMPETENT, name: "fact-guesser", deviation: "never asks the customer; invents plausible values for customer-sourced parameters", asks: false },
  { ...COMPETENT, name: "no-recheck", deviation: "gives up at the first rejection or error instead of waiting, re-reading and retrying", recheck: false },
];
