import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts"],
    // A run that finds no test must fail (CI treats "ran no test" as a defect).
    passWithNoTests: false,
    testTimeout: 60_000,
    pool: "forks",
    // The JSON report lets .ci/run count what actually ran.
    reporters: ["default", ["json", { outputFile: "generated/test-results.json" }]],
  },
});
