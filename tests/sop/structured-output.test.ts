import { AIMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { fakeModel } from "@langchain/core/testing";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { jsonCandidate, messageText, structuredCall } from "../../pipeline/llm/structured-output.js";
import { HangingModel } from "./hanging-model.js";

const Answer = z.object({ name: z.string(), count: z.number().int() }).strict();
const ask = [new SystemMessage("Count things."), new HumanMessage("How many?")];

describe("structuredCall", () => {
  it("accepts a valid answer at once, also inside a ```json fence", async () => {
    const model = fakeModel().respond(new AIMessage('Here you are:\n```json\n{"name": "apples", "count": 3}\n```\nAnything else?'));
    const r = await structuredCall({ model, schema: Answer, messages: ask });
    expect(r).toEqual({ ok: true, value: { name: "apples", count: 3 }, attempts: 1 });
    const sent = model.calls[0]?.messages ?? [];
    expect(sent.map((m) => m.getType())).toEqual(["system", "human", "human"]);
    expect(messageText(sent[2]!)).toContain('"count":{"type":"integer"');
  });

  it("shows malformed JSON back to the model, which then answers correctly", async () => {
    const model = fakeModel().respond(new AIMessage('{"name": "apples", "count": 3')).respond(new AIMessage('{"name": "apples", "count": 3}'));
    const r = await structuredCall({ model, schema: Answer, messages: ask, includeSchema: false });
    expect(r).toEqual({ ok: true, value: { name: "apples", count: 3 }, attempts: 2 });
    const second = model.calls[1]?.messages ?? [];
    expect(second.map((m) => m.getType())).toEqual(["system", "human", "ai", "human"]);
    expect(messageText(second[2]!)).toBe('{"name": "apples", "count": 3');
    expect(messageText(second[3]!)).toMatch(/^Your answer is not valid JSON \(.+\)\. Reply again with only the corrected JSON object\.$/);
  });

  it("shows the schema error (z.prettifyError) back to the model, which then answers correctly", async () => {
    const model = fakeModel().respond(new AIMessage('{"name": "apples", "count": "three"}')).respond(new AIMessage('{"name": "apples", "count": 3}'));
    const r = await structuredCall({ model, schema: Answer, messages: ask, includeSchema: false });
    expect(r).toEqual({ ok: true, value: { name: "apples", count: 3 }, attempts: 2 });
    expect(messageText(model.calls[1]!.messages[3]!)).toBe(
      "Your JSON does not match the schema:\n✖ Invalid input: expected number, received string\n  → at count\nReply again with only the corrected JSON object.",
    );
  });

  it("stops at the explicit refusal marker without retrying; prose that sounds like a refusal is retried", async () => {
    const model = fakeModel().respond(new AIMessage("REFUSE: I can't help with that request.")).respond(new AIMessage('{"name": "x", "count": 1}'));
    const r = await structuredCall({ model, schema: Answer, messages: ask, name: "chunk 1" });
    expect(r).toEqual({ ok: false, attempts: 1, error: { kind: "refusal", message: "chunk 1: the model refused: I can't help with that request." } });
    expect(model.callCount).toBe(1);
    const prose = fakeModel().respond(new AIMessage("I'm sorry, but I can't help with that request.")).respond(new AIMessage('{"name": "x", "count": 1}'));
    expect(await structuredCall({ model: prose, schema: Answer, messages: ask })).toEqual({ ok: true, value: { name: "x", count: 1 }, attempts: 2 });
  });

  it("treats a provider refusal field as a refusal", async () => {
    const model = fakeModel().respond(new AIMessage({ content: "", additional_kwargs: { refusal: "policy" } }));
    const r = await structuredCall({ model, schema: Answer, messages: ask });
    expect(r).toEqual({ ok: false, attempts: 1, error: { kind: "refusal", message: "answer: the model refused: policy" } });
  });

  it("gives up after timeouts of a model that never answers", async () => {
    const model = new HangingModel();
    const started = performance.now();
    const r = await structuredCall({ model, schema: Answer, messages: ask, timeoutMs: 40, maxAttempts: 2 });
    expect(r).toEqual({ ok: false, attempts: 2, error: { kind: "timeout", message: "answer: no answer within 40 ms" } });
    expect(model.calls).toBe(2);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("gives up when the attempts are exhausted, reporting the last failure", async () => {
    const model = fakeModel()
      .respond(new AIMessage("Let me think about it."))
      .respond(new AIMessage('{"name": 1, "count": 1}'))
      .respond(new AIMessage('{"name": "x", "count": 1.5}'));
    const r = await structuredCall({ model, schema: Answer, messages: ask, maxAttempts: 3 });
    expect(r).toEqual({ ok: false, attempts: 3, error: { kind: "schema", message: "answer: the answer does not match the schema:\n✖ Invalid input: expected int, received number\n  → at count" } });
    expect(model.callCount).toBe(3);
    expect(messageText(model.calls[1]!.messages.at(-1)!)).toBe("Your answer contains no JSON object.\nReply again with only the corrected JSON object.");
  });

  it("reports a model error without retrying", async () => {
    const model = fakeModel().respond(new Error("connection refused"));
    expect(await structuredCall({ model, schema: Answer, messages: ask })).toEqual({ ok: false, attempts: 1, error: { kind: "model_error", message: "answer: connection refused" } });
  });

  it("validates its options", async () => {
    await expect(structuredCall({ model: fakeModel(), schema: Answer, messages: ask, maxAttempts: 0 })).rejects.toThrow("Expected `maxAttempts` to be a whole number from 1 and up, got `0`");
  });
});

describe("jsonCandidate", () => {
  it("finds JSON in fences, bare, or inside prose; null without any", () => {
    expect(jsonCandidate('```\n{"a":1}\n```')).toBe('{"a":1}');
    expect(jsonCandidate('  [1, 2] ')).toBe("[1, 2]");
    expect(jsonCandidate('The answer is {"a": {"b": 2}} as requested.')).toBe('{"a": {"b": 2}}');
    expect(jsonCandidate("No JSON here.")).toBeNull();
  });
});
