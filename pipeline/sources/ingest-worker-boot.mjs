// Worker bootstrap: worker threads do not inherit tsx's loader hooks on Node 20, so register them
// here before loading a TypeScript entry (compiled .js entries load directly). The Markdown
// libraries are imported first, outside the hooks, which makes their loading about twice as fast.
import { workerData } from "node:worker_threads";

await Promise.all([import("unified"), import("remark-parse"), import("remark-frontmatter"), import("remark-gfm")]);
if (String(workerData.entry).endsWith(".ts")) {
  const { register } = await import("tsx/esm/api");
  register();
}
await import(workerData.entry);
