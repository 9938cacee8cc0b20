import { z } from "zod";
import type { CheckKind } from "./types.js";
import { CHECK_KINDS } from "./registry.js";

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  required?: string[];
  description?: string;
  default?: unknown;
};

const cell = (s: string) => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

function typeText(s: JsonSchema): string {
  if (s.anyOf) return s.anyOf.map(typeText).join(" \\| ");
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" \\| ");
  if (s.type === "array") return s.items?.anyOf || Array.isArray(s.items?.type) ? `(${typeText(s.items)})[]` : `${s.items ? typeText(s.items) : "value"}[]`;
  if (s.type === "object" && s.properties && Object.keys(s.properties).length > 0) {
    const opt = new Set(Object.keys(s.properties).filter((k) => !(s.required ?? []).includes(k)));
    return `{${Object.keys(s.properties).map((k) => `${k}${opt.has(k) ? "?" : ""}`).join(", ")}}`;
  }
  if (s.type === "object") return `map of ${typeof s.additionalProperties === "object" ? typeText(s.additionalProperties) : "value"}`;
  if (Array.isArray(s.type)) return s.type.join(" \\| ");
  return s.type ?? "value";
}

function paramsText(kind: CheckKind): string {
  const schema = z.toJSONSchema(kind.params, { io: "input", unrepresentable: "any" }) as JsonSchema;
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  return Object.entries(props)
    .map(([name, s]) => {
      const flag = required.has(name) ? "" : s.default !== undefined ? ` (default ${JSON.stringify(s.default)})` : " (optional)";
      return `\`${name}\`: ${typeText(s)}${flag} — ${cell(s.description ?? "")}`.trim();
    })
    .join("<br>");
}

/** The text of validation/checks/README.md, generated from the registry (regenerate, never hand-edit the table). */
export function renderChecksReadme(): string {
  const rows = CHECK_KINDS.map((k) => `| \`${k.kind}\` | ${k.group} | ${cell(k.description)} | ${paramsText(k)} | ${cell(k.catches)} |`);
  return `# Check kinds

<!-- Generated from validation/checks/registry.ts by \`node --import tsx validation/checks/write-readme.ts\`; tests/checks/checks-readme.test.ts fails when it is stale. -->

A check is a small pure function of a trace and a read-only \`CheckContext\` (initial rows, world
model, task). It returns \`{ passed, reason, event }\`; the reason names the event index or row that
decided it. \`runChecks(task, trace, ctx)\` validates each check's \`params\` against its kind below;
an unknown kind or bad parameters give a failed result naming the check, never a crash.

Only events that ran change the state or count as executions: \`executed\`, and \`faulted\` with an
implicit fault (the call ran; only its response was degraded). Rejected, errored and explicitly
faulted calls never do. \`RowPredicate\` is the world model's row condition
(\`{column, op, value? | other_column?}\`); comparisons with null are false, as in SQL, and booleans
compare as 0/1.

The group column is the group a kind is meant for; a task may file a kind under another group
(e.g. \`execution_count\` with \`max: 0\` as a protection check). Strict success is
Goal ∧ Process ∧ Protection; an empty process or protection group passes, an empty goal group fails.

| kind | group | asserts | params | catches |
|---|---|---|---|---|
${rows.join("\n")}
`;
}
