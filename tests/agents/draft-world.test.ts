import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { stableJson } from "../../pipeline/core/canonical-json.js";
import { draftWorldDeterministic } from "../../pipeline/agents/environment-builder/deterministic.js";
import { parseWorld } from "../../pipeline/world/load-world.js";
import { runCli } from "../cli/run-cli.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/draft/mooring-desk", import.meta.url));
const EXPECTED = fileURLToPath(new URL("../fixtures/draft/expected", import.meta.url));

/**
 * The fixture tool manual (tests/fixtures/draft/mooring-desk) gives exactly the committed draft and
 * review list. Regenerate them with UPDATE_FIXTURES=1 after a deliberate change, then review the diff.
 */
describe("the deterministic world drafter", () => {
  it("drafts exactly the expected world.yaml and review list from the fixture documents", () => {
    const d = draftWorldDeterministic(FIXTURE);
    if (process.env.UPDATE_FIXTURES === "1") {
      mkdirSync(EXPECTED, { recursive: true });
      writeFileSync(join(EXPECTED, "world.yaml"), d.yaml);
      writeFileSync(join(EXPECTED, "world-review.json"), stableJson(d.review));
    }
    expect(d.yaml).toBe(readFileSync(join(EXPECTED, "world.yaml"), "utf8"));
    expect(stableJson(d.review)).toBe(readFileSync(join(EXPECTED, "world-review.json"), "utf8"));
    // The draft is a valid world as it stands.
    expect(parseWorld(d.yaml, "world.yaml").problems).toEqual([]);
  });

  it("reads the documents' structures: formats, refusals, transitions, limits by a rule's value, approvals, clauses", () => {
    const world = parseWorld(draftWorldDeterministic(FIXTURE).yaml, "world.yaml").world!;
    const op = (n: string) => world.operations.find((o) => o.name === n)!;
    expect(op("get_booking").params.booking_id!.pattern).toBe("^BKG-\\d{4}$");
    expect(op("confirm_booking").params.boat_name!.source).toBe("customer");
    expect(op("cancel_booking").params.reason!.enum).toEqual(["owner_request", "weather"]);
    expect(op("confirm_booking").preconditions.map((p) => [p.id, p.sql])).toEqual([
      ["booking_requested", "SELECT COUNT(*) = 1 FROM bookings WHERE booking_id = :booking_id AND status = 'requested'"],
      ["boat_name_matches", "SELECT COUNT(*) = 1 FROM bookings WHERE booking_id = :booking_id AND boat_name = :boat_name"],
      ["amount_eur_at_most_2000", "SELECT COUNT(*) = 1 FROM bookings WHERE booking_id = :booking_id AND amount_eur <= 2000"],
      ["before_1700", "SELECT :now < 480"],
    ]);
    expect(op("confirm_booking").effects.map((e) => e.sql)).toEqual(["UPDATE bookings SET status = 'confirmed', confirmed_at = :now WHERE booking_id = :booking_id"]);
    expect(op("confirm_booking").requires_approval).toEqual({ kind: "booking", terms: ["booking_id", "amount_eur"] });
    expect(op("propose_booking").proposes).toEqual({ kind: "booking", terms: ["booking_id", "amount_eur"] });
    expect(op("approve_booking")).toMatchObject({ side: "customer", approves: "booking" });
    expect(world.rules.map((r) => [r.id, r.clause.clause, r.kind, r.value ?? null])).toEqual([
      ["R-MOR-2-1", "MOR-2.1", "precondition", 2000],
      ["R-MOR-3-1", "MOR-3.1", "precondition", null],
      ["R-MOR-1-1", "MOR-1.1", "approval", null],
    ]);
    expect(world.tables.find((t) => t.name === "bookings")!.columns.find((c) => c.name === "boat_name")).toMatchObject({ hidden: true });
  });

  it("never reads an existing world.yaml, and never replaces one without --force", () => {
    const root = mkdtempSync(join(tmpdir(), "draft-"));
    cpSync(FIXTURE, join(root, "mooring-desk"), { recursive: true });
    const world = join(root, "mooring-desk", "world.yaml");
    writeFileSync(world, "# an authored world the drafter must leave alone\n");
    expect(draftWorldDeterministic(join(root, "mooring-desk")).yaml).toBe(readFileSync(join(EXPECTED, "world.yaml"), "utf8"));
    const refused = runCli(["draft-world", "mooring-desk", "--sources", root, "--sop", join(root, "sop")]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("exists; a draft never replaces a world without --force (nothing was written)");
    expect(readFileSync(world, "utf8")).toBe("# an authored world the drafter must leave alone\n");
    expect(existsSync(join(root, "sop", "mooring-desk", "world-review.json"))).toBe(false);
    const forced = runCli(["draft-world", "mooring-desk", "--sources", root, "--sop", join(root, "sop"), "--force", "--json"]);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout)).toMatchObject({ ok: true, domain: "mooring-desk", strategy: "deterministic" });
    expect(readFileSync(world, "utf8")).toBe(readFileSync(join(EXPECTED, "world.yaml"), "utf8"));
    expect(readFileSync(join(root, "sop", "mooring-desk", "world-review.json"), "utf8")).toBe(readFileSync(join(EXPECTED, "world-review.json"), "utf8"));
  }, 60_000);
});
