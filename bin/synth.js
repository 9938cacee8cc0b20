#!/usr/bin/env node
// Entry point of the `synth` CLI. It runs the compiled JavaScript of the sources as they are now
// (bin/compile.mjs: build/js/<content hash>/, compiled on the spot after an edit), so a start does
// not transpile TypeScript and stale compiled code cannot run. Where build/ cannot be written, the
// TypeScript runs through tsx's loader instead (a slower start, same behaviour).
import { pathToFileURL } from "node:url";
import { join } from "node:path";
import { ensureCompiled } from "./compile.mjs";

// A reader that stops early (`synth show … | head`) closes the pipe: that ends the output, not in error.
for (const stream of [process.stdout, process.stderr]) {
  stream.on("error", (e) => {
    if (e?.code === "EPIPE") process.exit(0);
    throw e;
  });
}

let entry;
try {
  entry = pathToFileURL(join(await ensureCompiled(), "pipeline", "cli", "main.js")).href;
} catch (e) {
  if (e?.code !== "EACCES" && e?.code !== "EROFS" && e?.code !== "EPERM") {
    process.stderr.write(`synth: ${e?.message ?? e}\n`);
    process.exit(70);
  }
  const { register } = await import("tsx/esm/api");
  register();
  entry = new URL("../pipeline/cli/main.ts", import.meta.url).href;
}
const { main } = await import(entry);
process.exitCode = await main(process.argv);
