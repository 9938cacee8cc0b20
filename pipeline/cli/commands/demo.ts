import type { Command } from "commander";
import { formatIssue } from "../../core/errors.js";
import { checkDomain, listDomainDirs } from "../../sources/check-sources.js";

/** `synth demo`: the offline showcase run by `npm run demo`. */
export function registerDemo(program: Command): void {
  program
    .command("demo")
    .description("Run the offline demonstration over the sample domains in sources/ (what `npm run demo` runs).")
    .option("--sources <dir>", "folder holding the domains", "sources")
    .addHelpText("after", "\nToday the demo validates every sample domain's card and documents; it needs no network and no model.")
    .action((opts: { sources: string }) => {
      const dirs = listDomainDirs(opts.sources);
      if (dirs.length === 0) {
        process.stderr.write(`synth demo: no domains under ${opts.sources}/\n`);
        process.exitCode = 1;
        return;
      }
      let problems = 0;
      process.stdout.write(`Checking ${dirs.length} domain${dirs.length === 1 ? "" : "s"} under ${opts.sources}/\n`);
      for (const dir of dirs) {
        const r = checkDomain(dir);
        problems += r.issues.length;
        for (const i of r.issues) process.stdout.write(`  ${formatIssue(i)}\n`);
        process.stdout.write(`  ${r.domain.padEnd(24)} ${String(r.documents).padStart(3)} documents  ${r.issues.length === 0 ? "ok" : `${r.issues.length} problems`}\n`);
      }
      process.exitCode = problems === 0 ? 0 : 1;
    });
}
