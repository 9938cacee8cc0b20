// Where a `.cpuprofile` (node --cpu-prof) spends its time: self time per function and per package
// or source folder, from the sampled call tree. Run:
// `node --import tsx bench/lib/cpuprofile-top.ts FILE.cpuprofile [--top 25]`.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  ms: number;
}

/** Where a url belongs: a package of node_modules, a folder of the project, node's own modules, or V8's pseudo-frames. */
export function owner(url: string, functionName: string): string {
  if (!url) return `(${functionName || "anonymous"})`;
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1] as string;
  if (url.startsWith("node:")) return "node: built-ins";
  const js = /build\/js\/[0-9a-f]+\/(.*?)\/[^/]+$/.exec(url);
  if (js) return js[1] as string;
  return url.replace(/^file:\/\//, "").split("/").slice(-2, -1)[0] ?? url;
}

/** Self time (ms) per function and per owner, with the profile's wall span. */
export function selfTimes(profile: CpuProfile): { totalMs: number; functions: SelfTime[]; owners: SelfTime[]; inclusive: SelfTime[] } {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const keyOf = (f: ProfileNode["callFrame"]) => {
    const file = f.url.replace(/^.*\/(node_modules|build\/js\/[0-9a-f]+)\//, "").replace(/^file:\/\//, "");
    return `${f.functionName || "(anonymous)"} ${file ? `${file}:${f.lineNumber + 1}` : ""}`.trim();
  };
  const fn = new Map<string, number>();
  const own = new Map<string, number>();
  const incl = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i] as number);
    if (!node) continue;
    const dt = (profile.timeDeltas[i] ?? 0) / 1000;
    const f = node.callFrame;
    const key = keyOf(f);
    // Inclusive: each function on the sample's stack once.
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const k = keyOf((byId.get(id) as ProfileNode).callFrame);
      if (!seen.has(k)) incl.set(k, (incl.get(k) ?? 0) + dt);
      seen.add(k);
    }
    fn.set(key, (fn.get(key) ?? 0) + dt);
    const o = owner(f.url, f.functionName);
    own.set(o, (own.get(o) ?? 0) + dt);
  }
  const sorted = (m: Map<string, number>) => [...m].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
  return { totalMs: (profile.endTime - profile.startTime) / 1000, functions: sorted(fn), owners: sorted(own), inclusive: sorted(incl) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file) throw new Error("usage: cpuprofile-top.ts FILE.cpuprofile [--top N]");
  const i = process.argv.indexOf("--top");
  const top = i > 0 ? Number(process.argv[i + 1]) : 25;
  const s = selfTimes(JSON.parse(readFileSync(file, "utf8")) as CpuProfile);
  console.log(`profile span ${s.totalMs.toFixed(0)} ms`);
  console.log("\nself time by package / folder:");
  for (const o of s.owners.slice(0, top)) console.log(`${o.ms.toFixed(0).padStart(7)} ms ${((100 * o.ms) / s.totalMs).toFixed(1).padStart(5)}%  ${o.name}`);
  console.log("\nself time by function:");
  for (const f of s.functions.slice(0, top)) console.log(`${f.ms.toFixed(0).padStart(7)} ms ${((100 * f.ms) / s.totalMs).toFixed(1).padStart(5)}%  ${f.name}`);
  if (process.argv.includes("--inclusive")) {
    console.log("\ntotal time (self + callees) by function:");
    for (const f of s.inclusive.slice(0, top)) console.log(`${f.ms.toFixed(0).padStart(7)} ms ${((100 * f.ms) / s.totalMs).toFixed(1).padStart(5)}%  ${f.name}`);
  }
}
