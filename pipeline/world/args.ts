import { z } from "zod";
import { valueWordsNote } from "./value-words.js";
import type { Operation, Param } from "../schemas/index.js";

/**
 * Tool arguments are parsed against a zod schema built once per operation from its `params`.
 * Unknown arguments and over-long strings are refused: an agent must not be able to smuggle data
 * (or megabytes) past the declared parameters.
 */

export interface ArgumentError {
  code: "invalid_argument";
  field: string;
  message: string;
}

/** Longest list a list-valued parameter accepts when world.yaml sets no `max_items`. */
export const MAX_ITEMS = 50;

function paramSchema(name: string, p: Param): z.ZodType {
  const typeError = (expected: string) => ({
    error: (iss: { input?: unknown }) => (iss.input === undefined ? `${name} is required` : `${name} must be ${expected}, got ${iss.input === null ? "null" : typeof iss.input}`),
  });
  let s: z.ZodType;
  switch (p.type) {
    case "string": {
      let str = z.string(typeError("a string")).max(p.max_length, { error: `${name} is longer than ${p.max_length} characters` });
      if (p.pattern !== undefined) str = str.regex(new RegExp(p.pattern, "u"), { error: `${name} does not match the pattern ${p.pattern}` });
      s = str;
      break;
    }
    case "integer":
    case "number": {
      let num = p.type === "integer" ? z.number(typeError("a whole number")).int({ error: `${name} must be a whole number` }) : z.number(typeError("a number"));
      if (p.minimum !== undefined) num = num.min(p.minimum, { error: `${name} must be at least ${p.minimum}` });
      if (p.maximum !== undefined) num = num.max(p.maximum, { error: `${name} must be at most ${p.maximum}` });
      s = num;
      break;
    }
    case "boolean":
      s = z.boolean(typeError("true or false"));
      break;
    case "array": {
      const items = p.items ?? { type: "string" as const };
      const item = paramSchema(`${name}[]`, { ...p, ...items, type: items.type, items: undefined, required: true, enum: items.enum, pattern: items.pattern });
      const most = p.max_items ?? MAX_ITEMS;
      s = z.array(item, typeError("a list")).max(most, { error: `${name} has more than ${most} items` });
      break;
    }
  }
  if (p.enum !== undefined && p.type !== "array") {
    const allowed = p.enum;
    s = s.refine((v) => allowed.includes(v as string | number), { error: `${name} must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}` });
  }
  return p.required ? s : s.optional();
}

/** Strict object schema of an operation's arguments. */
export function argsSchema(params: Operation["params"]): z.ZodType<Record<string, unknown>> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, p] of Object.entries(params)) shape[name] = paramSchema(name, p);
  return z.strictObject(shape, { error: (iss) => (iss.code === "unrecognized_keys" ? `unknown argument ${iss.keys.map((k) => `"${k}"`).join(", ")}` : "arguments must be an object") }) as unknown as z.ZodType<Record<string, unknown>>;
}

/** Parse arguments; the first problem is reported with the field it concerns. */
export function parseArgs(schema: z.ZodType<Record<string, unknown>>, args: unknown): { ok: true; value: Record<string, unknown> } | { ok: false; error: ArgumentError } {
  const res = schema.safeParse(args);
  if (res.success) return { ok: true, value: res.data };
  const iss = res.error.issues[0] as z.core.$ZodIssue;
  const field = iss.code === "unrecognized_keys" ? (iss.keys[0] ?? "") : String(iss.path[0] ?? "");
  return { ok: false, error: { code: "invalid_argument", field, message: iss.message } };
}

/** JSON Schema of an operation's parameters, for binding the operation as an LLM tool. */
export function paramsJsonSchema(params: Operation["params"]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, p] of Object.entries(params)) {
    const note = valueWordsNote(p);
    const prop: Record<string, unknown> = { type: p.type, description: note ? `${p.description} ${note}` : p.description };
    if (p.enum) prop.enum = p.enum;
    if (p.minimum !== undefined) prop.minimum = p.minimum;
    if (p.maximum !== undefined) prop.maximum = p.maximum;
    if (p.type === "string") {
      prop.maxLength = p.max_length;
      if (p.pattern !== undefined) prop.pattern = p.pattern;
    }
    if (p.type === "array" && p.items) {
      prop.items = { type: p.items.type, ...(p.items.enum ? { enum: p.items.enum } : {}), ...(p.items.pattern !== undefined ? { pattern: p.items.pattern } : {}) };
      prop.maxItems = p.max_items ?? MAX_ITEMS;
      delete prop.enum;
    }
    properties[name] = prop;
    if (p.required) required.push(name);
  }
  return { type: "object", properties, required, additionalProperties: false };
}
