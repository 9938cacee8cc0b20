import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseWorld } from "../../pipeline/world/load-world.js";
import { FIXTURE_FILE } from "./fixture.js";

const text = readFileSync(FIXTURE_FILE, "utf8");
const lineOf = (t: string, needle: string) => t.split("\n").findIndex((l) => l.includes(needle)) + 1;

describe("a YAML slip in world.yaml", () => {
  it("an unquoted comma in a flow mapping is reported as the YAML slip it is, at its line, once", () => {
    const slipped = text.replace("{ name: name, type: text, description: Registered name. }", "{ name: name, type: text, description: Registered name, as the client reports. }");
    expect(slipped).not.toBe(text);
    const { world, problems } = parseWorld(slipped, "world.yaml");
    expect(world).toBeNull();
    expect(problems).toEqual([
      {
        code: "WORLD_YAML",
        message: 'unquoted `,` in a flow mapping: the text after it, "as the client reports.", was read as a key of its own; quote the value that holds the comma (e.g. description: "…, as the client reports.")',
        file: "world.yaml",
        line: lineOf(slipped, "as the client reports."),
        value: "as the client reports.",
      },
    ]);
  });

  it("a quoted comma is fine, and a key written with an explicit empty value is not a slip", () => {
    expect(parseWorld(text.replace("description: Registered name. }", 'description: "Registered name, as the client reports." }'), "world.yaml").problems).toEqual([]);
    const empty = parseWorld(text.replace("description: Registered name. }", "description: Registered name., label: }"), "world.yaml").problems;
    expect(empty.map((p) => [p.code, p.message])).toEqual([["WORLD_SCHEMA", 'unknown key "label"']]);
  });

  it("a syntax error is a YAML message with its line", () => {
    const broken = text.replace("{ name: name, type: text, description: Registered name. }", "{ name: name, type: text, description: Registered name. ");
    const problems = parseWorld(broken, "world.yaml").problems;
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => p.code === "WORLD_YAML" && typeof p.line === "number")).toBe(true);
  });
});
