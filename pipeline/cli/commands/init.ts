import { join } from "node:path";
import type { Command } from "commander";
import { checkDomainId } from "../../core/domain-id.js";
import { scaffoldDomain } from "../../sources/scaffold-domain.js";

interface InitFlags {
  sources: string;
  title?: string;
  json?: boolean;
}

/** `synth init DOMAIN`: scaffold a new domain folder that passes check-sources and builds. */
export function registerInit(program: Command): void {
  program
    .command("init")
    .description("Scaffold a new domain folder: a card, one document of each kind and a small world that builds.")
    .argument("<domain>", "the new domain's id (lowercase letters, digits, '-', '_'); the folder is <sources>/<domain>")
    .option("--sources <dir>", "folder that holds the domains", "sources")
    .option("--title <text>", "the domain's title (default: the id)")
    .option("--json", "print the files written as JSON")
    .addHelpText(
      "after",
      `
Writes <sources>/<domain>/domain.yaml, world.yaml and docs/ with a policy, a procedure, product
terms, a tool manual and an FAQ, each with valid front matter and written in the structures the
extractor and \`synth draft-world\` read (sources/README.md). The folder passes check-sources and
builds as it is; replace each file's content with your domain's, then draft the world from your
documents with \`synth draft-world <domain> --force\` and follow its review list. Refuses an
existing folder (exit 1). Exit codes: 0 written, 1 the folder exists, 2 usage.

Examples:
  synth init salmon-farm --title "Marine salmon farm"
  synth check-sources sources/salmon-farm && synth build --domains salmon-farm`,
    )
    .action((domain: string, flags: InitFlags) => {
      const id = checkDomainId(domain, "domain");
      const dir = join(flags.sources, id);
      const files = scaffoldDomain(dir, id, flags.title ?? id);
      if (flags.json) {
        process.stdout.write(`${JSON.stringify({ ok: true, domain: id, dir, files }, null, 2)}\n`);
        return;
      }
      for (const f of files) process.stdout.write(`wrote ${join(dir, f)}\n`);
      process.stdout.write(`${dir}: scaffolded (${files.length} files). Next: synth check-sources ${dir}; replace the documents with yours; synth draft-world ${id} --force\n`);
    });
}
