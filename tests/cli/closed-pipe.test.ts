import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SAMPLE_DIR } from "../show/show-fixture.js";

const BIN = fileURLToPath(new URL("../../bin/synth.js", import.meta.url));

describe("a reader that stops early", () => {
  it("`synth show … | head -c 100`: the closed pipe ends the output with exit 0 and nothing on stderr", () => {
    // A real pipe through bash (a child's stdio "pipe" in Node is a socket pair with a larger buffer).
    // The task's page is ~90 kB, more than a pipe holds, so synth is still writing when head exits.
    const err = join(mkdtempSync(join(tmpdir(), "pipe-")), "stderr.txt");
    const r = spawnSync("bash", ["-c", `"${process.execPath}" "${BIN}" show "${SAMPLE_DIR}" fx-treasury-001 2>"${err}" | head -c 100 >/dev/null; echo "\${PIPESTATUS[0]}"`], { encoding: "utf8", timeout: 60_000 });
    expect([r.stdout.trim(), readFileSync(err, "utf8")]).toEqual(["0", ""]);
  }, 60_000);
});
