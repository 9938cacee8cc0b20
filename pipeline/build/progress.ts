import cliProgress from "cli-progress";

export type ProgressMode = "tty" | "plain" | "json" | "silent";

export interface ProgressEvent {
  event: "run" | "stage" | "item" | "stage_done" | "done";
  run?: string;
  domain?: string;
  stage?: string;
  done?: number;
  total?: number;
  cache_hits?: number;
  detail?: string;
}

/**
 * Live progress of a build: bars on a terminal, one plain line per event otherwise, JSON lines with
 * `--json`. Progress goes to stderr so stdout stays for results.
 */
export class Progress {
  readonly mode: ProgressMode;
  readonly #out: NodeJS.WritableStream;
  #bar: cliProgress.SingleBar | null = null;

  constructor(mode: ProgressMode, out: NodeJS.WritableStream = process.stderr) {
    this.mode = mode;
    this.#out = out;
  }

  static auto(json: boolean): Progress {
    if (json) return new Progress("json", process.stdout);
    return new Progress(process.stderr.isTTY ? "tty" : "plain");
  }

  emit(e: ProgressEvent): void {
    if (this.mode === "silent") return;
    if (this.mode === "json") {
      this.#out.write(`${JSON.stringify(e)}\n`);
      return;
    }
    if (this.mode === "tty" && e.event === "item" && this.#bar) {
      this.#bar.update(e.done ?? 0, { cache: e.cache_hits ?? 0 });
      return;
    }
    if (this.mode === "tty" && e.event === "stage" && (e.total ?? 0) > 1) {
      this.#bar?.stop();
      this.#bar = new cliProgress.SingleBar({ format: `  ${e.domain} ${String(e.stage).padEnd(18)} [{bar}] {value}/{total}  cache hits {cache}`, hideCursor: true }, cliProgress.Presets.shades_classic);
      this.#bar.start(e.total ?? 0, 0, { cache: 0 });
      return;
    }
    if (e.event === "stage_done" && this.#bar) {
      this.#bar.stop();
      this.#bar = null;
    }
    if (this.mode === "plain" && e.event === "item") return;
    this.#out.write(`${line(e)}\n`);
  }
}

function line(e: ProgressEvent): string {
  switch (e.event) {
    case "run":
      return `run ${e.run}${e.detail ? ` (${e.detail})` : ""}`;
    case "stage":
      return `  ${e.domain} ${e.stage}: ${e.total ?? 0} item(s)`;
    case "stage_done":
      return `  ${e.domain} ${e.stage}: done ${e.done ?? 0}/${e.total ?? 0}, cache hits ${e.cache_hits ?? 0}${e.detail ? `, ${e.detail}` : ""}`;
    case "done":
      return `${e.domain}: ${e.detail ?? "done"}`;
    default:
      return `  ${e.domain} ${e.stage} ${e.done}/${e.total}`;
  }
}
