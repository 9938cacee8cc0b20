import type { CompiledOperation, CompiledWorld } from "./compile-world.js";
import { paramsJsonSchema } from "./args.js";
import { ToolError } from "./tool-error.js";

/**
 * Discovery: with three always-available tools an agent reaches every agent-side operation of a
 * world, however many there are (`list_capabilities` → `describe_capability` → `invoke_capability`).
 * Customer-side operations are not capabilities of the agent and are never listed.
 */

export const CAPABILITY_PAGE = 50;

function agentOps(world: CompiledWorld): CompiledOperation[] {
  return [...world.operations.values()].filter((o) => o.op.side === "agent");
}

function summary(description: string): string {
  const m = /^(.*?[.!?])(\s|$)/s.exec(description);
  return (m?.[1] ?? description).trim();
}

/**
 * Agent-side operations in declaration order, 50 per page. `filter` keeps those whose name or
 * description contains every word of it (case-insensitive).
 */
export function listCapabilities(world: CompiledWorld, filter?: string, offset = 0) {
  const words = (filter ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const matching = agentOps(world).filter(({ op }) => {
    const hay = `${op.name} ${op.name.replace(/_/g, " ")} ${op.description}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
  const page = matching.slice(offset, offset + CAPABILITY_PAGE).map(({ op }) => ({
    name: op.name,
    summary: summary(op.description),
    access: op.access,
    needs_approval: op.requires_approval !== undefined,
  }));
  return { total: matching.length, offset, capabilities: page };
}

/** The operation an agent may call by `name`, or a not_found ToolError. */
export function agentOperation(world: CompiledWorld, name: string, field = "name"): CompiledOperation {
  const op = world.operations.get(name);
  if (!op || op.op.side !== "agent") throw new ToolError("not_found", `no capability named "${name}"`, field);
  return op;
}

/** Everything needed to call one capability: description, parameters as JSON Schema, approval needs. */
export function describeCapability(world: CompiledWorld, name: string) {
  const { op } = agentOperation(world, name);
  const out: Record<string, unknown> = {
    name: op.name,
    description: op.description,
    access: op.access,
    parameters: paramsJsonSchema(op.params),
  };
  if (op.proposes) out.proposes = { kind: op.proposes.kind, terms: op.proposes.terms };
  if (op.requires_approval) out.requires_approval = { kind: op.requires_approval.kind, terms: op.requires_approval.terms };
  return out;
}
