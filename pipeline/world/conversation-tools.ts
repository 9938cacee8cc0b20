import type { ToolSpec } from "./standard-tools.js";

/** Longest message to the customer, in characters. */
export const MESSAGE_MAX_CHARS = 4000;

/**
 * The conversation tools every agent has besides the world's: talk to the customer, end the
 * episode. Here, below the evaluator, so the environment configuration (env-config/) lists the
 * agent's tools exactly as the evaluator's session offers them.
 */
export const CONVERSATION_TOOLS: readonly ToolSpec[] = [
  {
    name: "send_message",
    description: "Say something to the customer and read their answer: ask for details only they know, tell them what you did, or ask them to approve a proposal by its id (e.g. \"Please approve proposal PR-0001\").",
    parameters: { type: "object", properties: { text: { type: "string", minLength: 1, maxLength: MESSAGE_MAX_CHARS, description: "What you say to the customer." } }, required: ["text"], additionalProperties: false },
  },
  {
    name: "finish",
    description: "End the episode: the customer's request is complete, or cannot be done.",
    parameters: { type: "object", properties: { summary: { type: "string", description: "One line on what was done." } }, additionalProperties: false },
  },
];
