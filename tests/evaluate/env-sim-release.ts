import { join } from "node:path";
import { exportRelease } from "../../pipeline/release/export-release.js";
import { buildReleaseFixture, DOMAIN } from "../release/fixture.js";
import { tempDir } from "../release/helpers.js";

/**
 * A release with environment configurations, exported into a temporary folder from the release
 * tests' fixture domain (mini-treasury): the committed sample release predates them.
 */
export function envSimRelease(): string {
  const fx = buildReleaseFixture(tempDir("envsim-fx"));
  return exportRelease({ name: "envsim", version: "1.0.0", domains: [DOMAIN], ...fx, outRoot: join(tempDir("envsim-out"), "releases"), revision: "rev-test" }).dir;
}
