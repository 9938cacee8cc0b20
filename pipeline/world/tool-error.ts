/**
 * An expected failure of a tool (bad query, unknown document): it goes back to the caller as an
 * errored outcome `{ error: { code, message, field? } }`, never as an exception out of the episode.
 */
export class ToolError extends Error {
  readonly code: string;
  readonly field: string | undefined;

  constructor(code: string, message: string, field?: string) {
    super(message);
    this.name = "ToolError";
    this.code = code;
    this.field = field;
  }

  /** The value the caller sees. */
  toResult(): { error: { code: string; message: string; field?: string } } {
    return { error: { code: this.code, message: this.message, ...(this.field !== undefined ? { field: this.field } : {}) } };
  }
}
