import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { ARTIFACTS, ARTIFACT_NAMES, type ArtifactName } from "../../pipeline/schemas/index.js";
import { artifactJsonSchema } from "../../pipeline/schemas/json-schema.js";
import { validateAgainst } from "../../pipeline/core/schema-issues.js";

const good = (name: ArtifactName): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`../fixtures/schemas/good/${name}.json`, import.meta.url), "utf8")) as Record<string, unknown>;

function jsonSchemaErrors(name: ArtifactName, data: unknown): string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const validate = ajv.compile(artifactJsonSchema(name));
  validate(data);
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`);
}

/** Bad fixtures: one mutation of a good fixture each, with the exact zod path and JSON-Schema error expected. */
const BAD: Array<{ name: ArtifactName; why: string; mutate: (d: any) => void; zodPath: string; message: RegExp; ajv: string }> = [
  { name: "domain-card", why: "industry outside the ten", mutate: (d) => (d.industry = "Finance"), zodPath: "industry", message: /Invalid option/, ajv: "/industry enum" },
  { name: "domain-card", why: "missing role", mutate: (d) => delete d.role, zodPath: "role", message: /required key 'role' is missing/, ajv: " required" },
  { name: "domain-card", why: "typo key", mutate: (d) => (d.sumary = "x"), zodPath: "sumary", message: /unknown key 'sumary'/, ajv: " additionalProperties" },
  { name: "document-front-matter", why: "unknown kind", mutate: (d) => (d.kind = "memo"), zodPath: "kind", message: /Invalid option/, ajv: "/kind enum" },
  { name: "document-front-matter", why: "version as number", mutate: (d) => (d.version = 4.2), zodPath: "version", message: /expected string/, ajv: "/version type" },
  { name: "document-front-matter", why: "bad date", mutate: (d) => (d.effective_from = "01/01/2026"), zodPath: "effective_from", message: /YYYY-MM-DD/, ajv: "/effective_from pattern" },
  { name: "sop", why: "step without provenance", mutate: (d) => delete d.workflows[0].steps[1].provenance, zodPath: "workflows[0].steps[1].provenance", message: /required key 'provenance' is missing/, ajv: "/workflows/0/steps/1 required" },
  { name: "sop", why: "actor not agent/customer", mutate: (d) => (d.workflows[0].steps[0].actor = "robot"), zodPath: "workflows[0].steps[0].actor", message: /Invalid option/, ajv: "/workflows/0/steps/0/actor enum" },
  { name: "world-model", why: "column type", mutate: (d) => (d.tables[1].columns[2].type = "money"), zodPath: "tables[1].columns[2].type", message: /Invalid option/, ajv: "/tables/1/columns/2/type enum" },
  { name: "world-model", why: "operation side", mutate: (d) => (d.operations[0].side = "system"), zodPath: "operations[0].side", message: /Invalid option/, ajv: "/operations/0/side enum" },
  { name: "world-model", why: "table name not an identifier", mutate: (d) => (d.tables[0].name = "Clients Table"), zodPath: "tables[0].name", message: /SQL identifier/, ajv: "/tables/0/name pattern" },
  { name: "task", why: "no goal check", mutate: (d) => (d.checks.goal = []), zodPath: "checks.goal", message: /at least 1|>=1/, ajv: "/checks/goal minItems" },
  { name: "task", why: "thirteen pieces of work", mutate: (d) => (d.workflows = Array.from({ length: 13 }, (_, i) => `w${i}`)), zodPath: "workflows", message: /at most 12|<=12/, ajv: "/workflows maxItems" },
  { name: "task", why: "fact without disclosure trigger", mutate: (d) => (d.scenario.private_facts[0].disclose_when = []), zodPath: "scenario.private_facts[0].disclose_when", message: /at least 1|>=1/, ajv: "/scenario/private_facts/0/disclose_when minItems" },
  { name: "acceptance-check", why: "group", mutate: (d) => (d.group = "style"), zodPath: "group", message: /Invalid option/, ajv: "/group enum" },
  { name: "trace", why: "status", mutate: (d) => (d.events[1].status = "ok"), zodPath: "events[1].status", message: /Invalid option/, ajv: "/events/1/status enum" },
  { name: "trace", why: "event index 0", mutate: (d) => (d.events[0].index = 0), zodPath: "events[0].index", message: />=1/, ajv: "/events/0/index minimum" },
  { name: "validation-report", why: "kill rate above 1", mutate: (d) => (d.summary.kill_rate = 1.5), zodPath: "summary.kill_rate", message: /<=1/, ajv: "/summary/kill_rate maximum" },
  { name: "release-manifest", why: "hash not sha256", mutate: (d) => (d.files["README.md"] = "abc"), zodPath: "files.README.md", message: /sha256/, ajv: "/files/README.md pattern" },
  { name: "release-manifest", why: "version not semver", mutate: (d) => (d.version = "1.0"), zodPath: "version", message: /X\.Y\.Z/, ajv: "/version pattern" },
  { name: "env-config-shared", why: "tool kind", mutate: (d) => (d.tools[0].kind = "magic"), zodPath: "tools[0].kind", message: /Invalid option/, ajv: "/tools/0/kind enum" },
  { name: "env-config-shared", why: "rows shape without fields", mutate: (d) => (d.tools[0].result.fields = []), zodPath: "tools[0].result.fields", message: /at least 1|>=1/, ajv: "/tools/0/result anyOf" },
  { name: "env-config", why: "negative omitted count", mutate: (d) => (d.initial_state[0].omitted = -1), zodPath: "initial_state[0].omitted", message: />=0/, ajv: "/initial_state/0/omitted minimum" },
  { name: "evaluation-episode", why: "condition", mutate: (d) => (d.condition = "E9"), zodPath: "condition", message: /Invalid option/, ajv: "/condition enum" },
  { name: "evaluation-result", why: "rate above 1", mutate: (d) => (d.overall.strict_success.rate = 1.5), zodPath: "overall.strict_success.rate", message: /<=1/, ajv: "/overall/strict_success/rate maximum" },
];

describe("artifact schemas", () => {
  it("cover exactly the artifacts the foundry exchanges", () => {
    expect(ARTIFACT_NAMES).toEqual([
      "acceptance-check", "build-record", "document-front-matter", "domain-card", "env-config", "env-config-shared", "evaluation-episode", "evaluation-result", "release-manifest",
      "sop", "task", "trace", "validation-report", "world-model",
    ]);
  });

  it.each(ARTIFACT_NAMES)("%s: the good fixture passes both the zod schema and the exported JSON Schema", (name) => {
    expect(validateAgainst(ARTIFACTS[name], good(name)).ok).toBe(true);
    expect(jsonSchemaErrors(name, good(name))).toEqual([]);
  });

  it.each(ARTIFACT_NAMES)("%s: every field is described", (name) => {
    const undocumented: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (!node || typeof node !== "object") return;
      const n = node as Record<string, unknown>;
      for (const [k, v] of Object.entries((n.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        if (typeof v.description !== "string") undocumented.push(`${path}.${k}`);
        walk(v, `${path}.${k}`);
      }
      for (const [k, v] of Object.entries(n)) if (k !== "properties") walk(v, path);
    };
    walk(artifactJsonSchema(name), name);
    expect(undocumented).toEqual([]);
  });

  it.each(BAD.map((b) => [`${b.name}: ${b.why}`, b] as const))("%s is rejected at the exact path", (_label, bad) => {
    const data = structuredClone(good(bad.name));
    bad.mutate(data);
    const r = validateAgainst(ARTIFACTS[bad.name], data, { file: `${bad.name}.json` });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const hit = r.issues.find((i) => i.path === bad.zodPath);
    expect(hit, JSON.stringify(r.issues)).toBeDefined();
    expect(hit?.message).toMatch(bad.message);
    expect(hit?.file).toBe(`${bad.name}.json`);
    expect(jsonSchemaErrors(bad.name, data)).toContain(bad.ajv);
  });
});
