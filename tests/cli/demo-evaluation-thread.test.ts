import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runDemoEvaluationsInThread } from "../../pipeline/cli/commands/demo-evaluation-thread.js";

describe("the demo's evaluation on a worker thread", () => {
  it("boots the TypeScript entry on its own thread and reports the evaluation's error, not a hang", async () => {
    const generated = mkdtempSync(join(tmpdir(), "demo-thread-"));
    const thread = runDemoEvaluationsInThread({ release: "sample@0.0.9", releasesRoot: "generated/releases", generated });
    await expect(thread.result).rejects.toThrow(/^the demo's evaluation failed: .*sample@0\.0\.9/s);
  }, 60_000);
});
