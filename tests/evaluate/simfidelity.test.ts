import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadEvalRelease } from "../../pipeline/evaluate/load-release.js";
import { simFidelity } from "../../pipeline/evaluate/simfidelity/run-simfidelity.js";
import { SimFidelityReport } from "../../pipeline/evaluate/simfidelity/report-schema.js";
import { testConfig } from "../llm/helpers.js";
import { chat, ScriptedServer, type ServerReply } from "../llm/scripted-server.js";
import { cleanupTemp } from "../release/helpers.js";
import { envSimRelease } from "./env-sim-release.js";

let release: string;
let server: ScriptedServer | null = null;
let out: string | null = null;
beforeAll(() => {
  release = envSimRelease();
}, 120_000);
afterEach(async () => {
  await server?.close();
  server = null;
  if (out) rmSync(out, { recursive: true, force: true });
});
afterAll(cleanupTemp);

const isRow = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

describe("synth simfidelity: a simulator wrong on a known share of fields is reported with exactly that share", () => {
  it("teacher-forced replay of the golden traces; every other answered call has one field wrong", async () => {
    const r = loadEvalRelease(release);
    // The calls the simulator answers, in release order, with the world's real responses.
    const real: Array<{ task: string; name: string; result: unknown; proposal_id?: string | undefined }> = [];
    for (const t of r.tasks) {
      const answered = new Set(t.env_config!().tools.filter((x) => x.kind === "operation" || x.kind === "query" || x.kind === "wait").map((x) => x.name));
      for (const e of t.golden.events) if (e.actor === "agent" && e.kind !== "agent_message" && answered.has(e.name)) real.push({ task: t.task.id, name: e.name, result: e.result ?? null, proposal_id: e.proposal_id });
    }
    expect(real.length).toBeGreaterThanOrEqual(3);
    // Field counts of the real results, counted here independently: a row's fields, every row's of a list.
    const fieldsOf = (x: (typeof real)[number]) => (isRow(x.result) ? Object.keys(x.result).length : Array.isArray(x.result) ? x.result.reduce((n: number, row) => n + Object.keys(row as object).length, 0) : x.result === null ? 0 : 1);
    let wrong = 0;
    const replies: ServerReply[] = real.map((x, i) => {
      const corrupt = i % 2 === 1 && fieldsOf(x) > 0;
      let result = structuredClone(x.result);
      const proposal = x.proposal_id;
      if (corrupt) {
        wrong++;
        if (isRow(result)) {
          const k = Object.keys(result)[0]!;
          result = { ...result, [k]: `${String(result[k])}-wrong` };
        } else if (Array.isArray(result)) {
          const row = result[0] as Record<string, unknown>;
          const k = Object.keys(row).at(-1)!;
          result[0] = { ...row, [k]: `${String(row[k])}-wrong` };
        }
      }
      return chat(null, { toolCalls: [{ id: `s${i}`, name: "env_sim_answer", arguments: JSON.stringify({ status: "executed", result, ...(proposal ? { proposal_id: proposal } : {}) }) }] });
    });
    const totalFields = real.reduce((n, x) => n + fieldsOf(x), 0);
    expect(wrong).toBeGreaterThan(0);
    server = await ScriptedServer.start(replies);
    out = mkdtempSync(join(tmpdir(), "simfid-"));
    const { report, jsonPath, htmlPath } = await simFidelity({ release, simulator: "openai:gpt-4.1-mini", tasks: null, domains: null, out, config: testConfig({ base_url: server.baseUrl, max_retries: 0 }), runtime: { cache: null, env: {} } });
    expect(server.requests).toHaveLength(real.length);
    expect(report.overall.calls).toBe(real.length);
    expect(report.overall.fields).toBe(totalFields);
    expect(report.overall.field_agreement).toBe((totalFields - wrong) / totalFields);
    expect([report.overall.status_agreement, report.overall.invented, report.overall.missing, report.overall.valid]).toEqual([1, 0, 0, real.length]);
    // Per operation and per domain add up to the whole; drift compares the halves of each conversation.
    const ops = Object.values(report.by_operation);
    expect(ops.reduce((n, f) => n + f.calls, 0)).toBe(real.length);
    expect(Object.keys(report.by_domain)).toEqual(["mini-treasury"]);
    expect(report.drift.first_half.calls + report.drift.second_half.calls).toBe(real.length);
    // Teacher forcing: the request for a later call carries the world's real earlier responses.
    const second = real.findIndex((x, i) => i > 0 && real[i - 1]!.task === x.task);
    if (second > 0) expect(JSON.stringify(server.requests[second]!.body.messages)).toContain(`called ${real[second - 1]!.name}`);
    expect(SimFidelityReport.parse(JSON.parse(readFileSync(jsonPath, "utf8")))).toEqual(report);
    expect(readFileSync(htmlPath, "utf8")).toContain('<section id="simfidelity">');
  }, 120_000);
});
