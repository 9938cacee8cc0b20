import { describe, expect, it } from "vitest";
import { loadEvalRelease } from "../../pipeline/evaluate/load-release.js";
import { EpisodeDriver } from "../../validation/episode-driver.js";
import { deterministicCustomer } from "../../pipeline/evaluate/customer/deterministic.js";
import { Session } from "../../pipeline/evaluate/session.js";
import { SAMPLE } from "./runner-fixture.js";

const release = loadEvalRelease(SAMPLE);
const item = release.tasks.find((t) => t.task.id === "fx-treasury-001")!;

function open(tools: "direct" | "discovery" = "direct") {
  const driver = EpisodeDriver.open(item.domain, item.task, {});
  const customer = deterministicCustomer({ task: item.task, episode: driver.episode, seed: 0 });
  const session = new Session({ driver, customer, scripted: true, tools, bounds: { maxTurns: 100, maxToolCalls: 100, deadline: Date.now() + 60_000 }, opening: "", givenDocuments: [], businessDate: item.task.as_of, domainTitle: item.domain.card.title });
  return { driver, session };
}

// [what, tool, args, error code, error message]
const CASES: Array<[string, string, unknown, string, string]> = [
  ["unknown tool", "drop_everything", {}, "unknown_tool", 'no tool named "drop_everything" is offered'],
  ["customer-side operation", "approve_payment_release", { proposal_id: "PR-0001" }, "unknown_tool", 'no tool named "approve_payment_release" is offered'],
  ["missing argument", "defer_payment", {}, "invalid_argument", "payment_id is required"],
  ["extra argument", "defer_payment", { payment_id: "PAY-10001", force: true }, "invalid_argument", 'unknown argument "force"'],
  ["wrong-typed argument", "defer_payment", { payment_id: 42 }, "invalid_argument", "payment_id must be a string, got number"],
  ["arguments not an object", "defer_payment", "PAY-10001", "invalid_argument", "payment_id is required"],
  ["oversized argument", "cancel_payment", { payment_id: "PAY-10001", reason: "x".repeat(100_000) }, "invalid_argument", 'argument "reason" is 100000 characters long; at most 10000 are accepted'],
  ["SQL text in an argument", "get_payment", { payment_id: "PAY-10001' OR 1=1 --" }, "invalid_argument", "payment_id does not match the pattern ^PAY-\\d{5}$"],
  ["two statements in the query tool", "query_database", { sql: "SELECT 1; DROP TABLE payments" }, "invalid_sql", "The supplied SQL string contains more than one statement"],
  ["DELETE through the query tool", "query_database", { sql: "DELETE FROM payments" }, "query_refused", "only a single SELECT statement is allowed, got DELETE"],
  ["UPDATE through the query tool", "query_database", { sql: "UPDATE payments SET status = 'released'" }, "query_refused", "only a single SELECT statement is allowed, got UPDATE"],
  ["INSERT … RETURNING through the query tool", "query_database", { sql: "INSERT INTO payments (payment_id) VALUES ('PAY-99999') RETURNING payment_id" }, "query_refused", "only a single SELECT statement is allowed, got INSERT"],
  ["hidden column", "query_database", { sql: "SELECT invoice_ref FROM payments" }, "query_refused", 'column "invoice_ref" is not available to queries'],
  ["runtime table", "query_database", { sql: "SELECT * FROM _proposals" }, "query_refused", '"_proposals" is not available to queries'],
  ["document by path", "read_document", { id: "../../manifest.json" }, "not_found", 'no document with id "../../manifest.json"'],
  ["document by file name", "read_document", { id: "docs/payment-release-procedure.md" }, "not_found", 'no document with id "docs/payment-release-procedure.md"'],
  ["unknown document id", "read_document", { id: "no-such-doc" }, "not_found", 'no document with id "no-such-doc"'],
  ["message without text", "send_message", {}, "invalid_argument", "text must be a string"],
  ["message with an extra argument", "send_message", { text: "hello", cc: "boss" }, "invalid_argument", 'unknown argument "cc"'],
  ["negative wait", "wait", { minutes: -5 }, "invalid_argument", "minutes must be at least 0"],
];

describe("agent misuse is a tool error the agent sees, traced, with the state unchanged", () => {
  for (const [what, tool, args, code, message] of CASES) {
    it(what, async () => {
      const { driver, session } = open();
      const before = driver.episode.contentHash();
      const chain = driver.episode.stateHash;
      const reply = await session.call(tool, args);
      expect(reply.done).toBe(false);
      const error = (reply.content as { error: { code: string; message: string } }).error;
      expect(error).toMatchObject({ code, message });
      expect(driver.episode.contentHash()).toBe(before);
      expect(driver.episode.stateHash).toBe(chain);
      const last = driver.episode.events.at(-1)!;
      expect([last.name, last.status, last.changes]).toEqual([tool, "errored", []]);
      driver.close();
    });
  }

  it("a business operation called directly in discovery mode is an unknown tool; through invoke_capability it runs", async () => {
    const { driver, session } = open("discovery");
    const before = driver.episode.contentHash();
    const reply = await session.call("defer_payment", { payment_id: "PAY-10001" });
    expect((reply.content as { error: unknown }).error).toEqual({ code: "unknown_tool", message: '"defer_payment" is reached through invoke_capability in this evaluation' });
    expect(driver.episode.contentHash()).toBe(before);
    expect(session.tools.some((t) => t.name === "defer_payment")).toBe(false);
    const ok = await session.call("invoke_capability", { name: "get_payment", args: { payment_id: "PAY-10001" } });
    expect((ok.content as { payment_id: string }).payment_id).toBe("PAY-10001");
    driver.close();
  });

  it("the query tool never shows a hidden column", async () => {
    const { driver, session } = open();
    const reply = await session.call("query_database", { sql: "SELECT * FROM payments" });
    expect((reply.content as { columns: string[] }).columns).not.toContain("invoice_ref");
    driver.close();
  });

  it("after the call bound every call answers that the episode is over, and nothing more is traced", async () => {
    const driver = EpisodeDriver.open(item.domain, item.task, {});
    const customer = deterministicCustomer({ task: item.task, episode: driver.episode, seed: 0 });
    const session = new Session({ driver, customer, scripted: true, tools: "direct", bounds: { maxTurns: 100, maxToolCalls: 2, deadline: Date.now() + 60_000 }, opening: "", givenDocuments: [], businessDate: item.task.as_of, domainTitle: "" });
    await session.call("get_payment", { payment_id: "PAY-10001" });
    await session.call("get_payment", { payment_id: "PAY-10004" });
    const third = await session.call("defer_payment", { payment_id: "PAY-10001" });
    expect(third).toEqual({ content: { error: { code: "episode_over", message: "the episode is over (max_tool_calls); no more calls are carried out" } }, done: true });
    expect(session.end).toBe("max_tool_calls");
    expect(driver.episode.events.filter((e) => e.actor === "agent")).toHaveLength(2);
    driver.close();
  });
});
