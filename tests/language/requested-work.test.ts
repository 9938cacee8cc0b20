import { describe, expect, it } from "vitest";
import { RandomStream } from "../../pipeline/core/random.js";
import { openingRequest } from "../../pipeline/agents/task-designer/opening-request.js";
import { requestedWork } from "../../validation/probes/identify-procedures.js";
import { readSop } from "../../validation/probes/read-documents.js";
import { agentView } from "../../validation/probes/visible-world.js";
import { domain } from "../validation/fixture.js";

describe("the probe reads the requested work by meaning", () => {
  const sop = () => readSop(domain().documents.filter((d) => d.id !== "payment-fee-schedule"), agentView(domain().world));
  const asks = [
    { title: "Fund an operating account", object: "account", key: "ACC-001" },
    { title: "Release an outgoing payment", object: "payment", key: "PAY-00004" },
    { title: "Record a desk note", object: "payment", key: "PAY-00001" },
  ];

  it("finds each piece of work and its sentence in every seeded phrasing", () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const request = openingRequest("Alder Freight", "CL-001", asks, new RandomStream(seed).fork("opening"));
      const work = requestedWork(sop().workflows, request);
      expect(work.map((w) => w.procedures.map((p) => p.id))).toEqual([["account-funding"], ["payment-release"], ["payment-note"]]);
      expect(work.map((w) => /ACC-001|PAY-\d+/.exec(w.text)?.[0])).toEqual(["ACC-001", "PAY-00004", "PAY-00001"]);
    }
  });

  it("reads a request written in words no designer template uses", () => {
    const request = "Good afternoon from Alder Freight. Our reserve is too high, so we must fund the operating account ACC-001 from it. When the money is there, release the outgoing payment PAY-00004!";
    expect(requestedWork(sop().workflows, request).map((w) => w.procedures.map((p) => p.id))).toEqual([["account-funding"], ["payment-release"]]);
    // The old joiner alone is not needed, and not special: one sentence with both is read whole, in order.
    expect(requestedWork(sop().workflows, "Please fund our operating account ACC-001 and release our outgoing payment PAY-00004.").map((w) => w.procedures.map((p) => p.id))).toEqual([["account-funding", "payment-release"]]);
  });

  it("reads the clauses of a sentence that chains pieces of work apart, each with its own record, and keeps a clause that asks for nothing with its sentence", () => {
    const chained = "Please fund the operating account ACC-001, and then release an outgoing payment for PAY-00004; then record a desk note for PAY-00001.";
    const work = requestedWork(sop().workflows, chained);
    expect(work.map((w) => w.procedures.map((p) => p.id))).toEqual([["account-funding"], ["payment-release"], ["payment-note"]]);
    expect(work.map((w) => w.text)).toEqual(["Please fund the operating account ACC-001", "release an outgoing payment for PAY-00004", "record a desk note for PAY-00001."]);
    // "and then tell me" asks for no procedure: the sentence stays one piece.
    const whole = "Please release an outgoing payment for PAY-00004, and then tell me when it is done.";
    expect(requestedWork(sop().workflows, whole).map((w) => [w.text, w.procedures.map((p) => p.id)])).toEqual([[whole, ["payment-release"]]]);
  });
});
