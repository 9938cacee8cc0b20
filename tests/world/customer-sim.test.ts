import { describe, expect, it } from "vitest";
import { loadEvalRelease } from "../../pipeline/evaluate/load-release.js";
import { EpisodeDriver } from "../../validation/episode-driver.js";
import { SAMPLE_DIR } from "../show/show-fixture.js";

// The scripted customer answers a question about a fact's topic. A format hint in brackets names
// other words ("<country>", "<invoice>"): those are not questions about the other facts.
describe("the scripted customer", () => {
  const release = loadEvalRelease(SAMPLE_DIR);
  const et = release.tasks.find((t) => t.task.id === "customs-clearance-003")!;

  function ask(text: string): string[] {
    const driver = EpisodeDriver.open(et.domain, et.task, { role: "agent" });
    try {
      driver.do({ type: "open" });
      return driver.do({ type: "ask", text }).events.filter((e) => e.kind === "customer_message").flatMap((e) => e.facts);
    } finally {
      driver.close();
    }
  }

  it("answers the fact asked about, not the facts whose words only occur in a bracketed format hint", () => {
    expect(ask("Could you please tell me the reference of the proof of origin (EUR1-nnnnnnn, REX<country><number>-<invoice> or SOO-<invoice>) held by the importer?")).toEqual(["proof_of_origin_reference"]);
    // The same words outside brackets are questions about those facts.
    expect(ask("Could you tell me the reference of the proof of origin, the invoice number and the country of origin?")).toEqual(["proof_of_origin_reference", "commercial_invoice_number", "country_of_origin"]);
  });
});
