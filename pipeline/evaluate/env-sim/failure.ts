/**
 * A failure of the environment simulator that is not the agent's doing (its provider failing after
 * the runtime's retries): the episode becomes `errored` with this class, left out of every rate.
 * An answer of the wrong shape is not this: it becomes an errored call in the trace.
 */
export class EnvSimFailure extends Error {
  constructor(
    readonly errorClass: string,
    message: string,
  ) {
    super(message);
    this.name = "EnvSimFailure";
  }
}
