import { describe, expect, it } from "vitest";
import type { Task } from "../../pipeline/schemas/index.js";
import { EpisodeDriver } from "../../validation/episode-driver.js";
import { domain, smallRelease } from "../validation/fixture.js";

/** The customer's reply to one question, on a fresh episode of `task`. */
function replyTo(task: Task, question: string): string {
  const driver = EpisodeDriver.open(domain(), task, { role: "probe", label: "test" });
  try {
    driver.do({ type: "open" });
    return driver.do({ type: "ask", text: question })?.events.at(-1)?.text ?? "";
  } finally {
    driver.close();
  }
}

describe("the scripted customer understands questions in the documents' words", () => {
  const task = (): Task => {
    const t = smallRelease();
    const facts = t.scenario.private_facts.map((f) => ({ ...f, disclose_when: ["invoice reference"] }));
    return { ...t, scenario: { ...t.scenario, private_facts: facts } };
  };

  it("discloses a fact when every word of its topic is asked about, in any order and form", () => {
    const fact = task().scenario.private_facts[0]!;
    expect(replyTo(task(), "What is the invoice reference?")).toBe(fact.statement);
    expect(replyTo(task(), "Could you give me the reference of the invoices concerned?")).toBe(fact.statement);
  });

  it("does not disclose it for only part of the topic", () => {
    expect(replyTo(task(), "Which invoice is it?")).toBe("I'm not sure what you need from me there. Could you tell me exactly which detail you are missing?");
  });
});
