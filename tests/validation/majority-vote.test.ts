import { describe, expect, it } from "vitest";
import { judgeByMajority, majorityVote } from "../../validation/majority-vote.js";

describe("majority vote", () => {
  it("a strict majority wins; judgments compare by canonical JSON", () => {
    expect(majorityVote([{ ok: true, why: "a" }, { why: "a", ok: true }, { ok: false, why: "b" }])).toEqual({ winner: { ok: true, why: "a" }, votes: 2, total: 3, agreement: 2 / 3 });
  });

  it("no strict majority, no winner", () => {
    expect(majorityVote(["yes", "no", "maybe"])).toEqual({ winner: null, votes: 1, total: 3, agreement: 1 / 3 });
    expect(majorityVote(["yes", "no", "yes", "no"]).winner).toBeNull();
  });

  it("a key decides what counts as the same judgment", () => {
    const v = majorityVote([{ pass: true, note: "x" }, { pass: true, note: "y" }, { pass: false, note: "z" }], (j) => String(j.pass));
    expect([v.winner?.note, v.votes]).toEqual(["x", 2]);
  });

  it("needs at least three judgments", () => {
    expect(() => majorityVote([true, true])).toThrow("a majority vote needs at least 3 judgments, got 2");
  });

  it("asks a judge n times in order and votes", async () => {
    const asked: number[] = [];
    const v = await judgeByMajority(async (round) => {
      asked.push(round);
      return round === 2 ? "fail" : "pass";
    }, 5);
    expect(asked).toEqual([1, 2, 3, 4, 5]);
    expect([v.winner, v.votes, v.total]).toEqual(["pass", 4, 5]);
    await expect(judgeByMajority(async () => "pass", 2)).rejects.toThrow("Expected `n` to be a whole number from 3 and up, got `2`");
  });
});
