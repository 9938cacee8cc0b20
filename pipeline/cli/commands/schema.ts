import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { writeJsonSchemas, writeSimulatedJsonSchemas } from "../../schemas/json-schema.js";

/** `synth schema --out DIR`: one JSON Schema (draft 2020-12) per artifact. */
export function registerSchema(program: Command): void {
  program
    .command("schema")
    .description("Write one JSON Schema (draft 2020-12) per artifact the foundry reads or writes.")
    .requiredOption("-o, --out <dir>", "folder to write <artifact>.schema.json files into (created if missing)")
    .option("--json", "print the list of written files as JSON")
    .addHelpText("after", "\nArtifacts: domain-card, document-front-matter, sop, world-model, task, acceptance-check,\ntrace, validation-report, release-manifest, evaluation-result, evaluation-episode, build-record,\nenv-config; and those of simulated-only domains: simulated-domain-card, simulated-task,\nsimulated-verdict, simulated-report, simulated-evaluation.\n\nExample:\n  synth schema --out schemas/")
    .action((opts: { out: string; json?: boolean }) => {
      mkdirSync(opts.out, { recursive: true });
      const write = (name: string, text: string) => {
        const file = join(opts.out, `${name}.schema.json`);
        writeFileSync(file, text);
        return file;
      };
      const files = [...writeJsonSchemas(write), ...writeSimulatedJsonSchemas(write)];
      if (opts.json) process.stdout.write(`${JSON.stringify({ files }, null, 2)}\n`);
      else process.stdout.write(`${files.map((f) => `wrote ${f}`).join("\n")}\n`);
    });
}
