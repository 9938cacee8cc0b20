import type { TopLevelSpec } from "vega-lite";
import type { EvaluationResult, Rate, SliceScores } from "../../../schemas/evaluation-result.js";
import { CALL_KINDS, type Efficiency } from "../efficiency.js";
import { CAPS, capKey } from "../caps.js";

/** One chart of the report: a title, what it shows, and its Vega-Lite spec. */
export interface Chart {
  id: string;
  title: string;
  caption: string;
  spec: TopLevelSpec;
}

const CONFIG = { font: "sans-serif", view: { stroke: null }, axis: { labelFontSize: 11, titleFontSize: 12 }, legend: { labelFontSize: 11 } } as const;
const MEASURES = ["strict_success", "goal", "process", "protection"] as const;
const RATE_AXIS = { type: "quantitative", scale: { domain: [0, 1] }, axis: { format: "%" } } as const;

/** Rows of rate bars: one per (group, measure) whose rate is known; intervals as lo/hi. */
function rateRows(slices: Readonly<Record<string, SliceScores>>, measures: readonly (typeof MEASURES)[number][]) {
  return Object.entries(slices).flatMap(([group, s]) =>
    measures.flatMap((m) => {
      const r = s[m] as Rate;
      return r.rate === null ? [] : [{ group, measure: m, rate: r.rate, lo: r.lo, hi: r.hi, n: r.n }];
    }),
  );
}

function barsWithIntervals(values: object[], x: string, color: string | null, width: number): TopLevelSpec {
  const offset = color ? { xOffset: { field: color, type: "nominal", sort: null } } : {};
  const colorEnc = color ? { color: { field: color, type: "nominal", sort: null, title: null } } : {};
  return {
    config: CONFIG,
    width,
    height: 220,
    data: { values },
    encoding: { x: { field: x, type: "nominal", title: null, axis: { labelAngle: 0, labelLimit: 260 } }, ...offset },
    layer: [
      { mark: { type: "bar" }, encoding: { y: { field: "rate", title: "rate", ...RATE_AXIS }, ...colorEnc } },
      { mark: { type: "rule", color: "#222" }, encoding: { y: { field: "lo", ...RATE_AXIS, title: "rate" }, y2: { field: "hi" } } },
    ],
  } as unknown as TopLevelSpec;
}

/** The charts of report.html, from the summary alone. */
export function chartSpecs(summary: EvaluationResult): Chart[] {
  const eff = summary.efficiency as unknown as Efficiency;
  const passRows = Object.entries(summary.pass_hat_k).flatMap(([condition, ks]) =>
    Object.entries(ks).flatMap(([k, v]) => (v === null ? [] : [{ condition, k: Number(k), value: v }])),
  );
  const perEpisode = (n: number) => (eff.episodes === 0 ? 0 : n / eff.episodes);
  const callRows = CALL_KINDS.flatMap((kind) => [
    { kind, who: "agent", calls: perEpisode(eff.by_kind[kind].agent) },
    { kind, who: "golden trace", calls: perEpisode(eff.by_kind[kind].golden) },
  ]);
  const capRows = CAPS.flatMap((cap) => {
    const r = summary.caps[capKey(cap)] as Rate;
    return r.rate === null ? [] : [{ cap: `${cap}×`, rate: r.rate, lo: r.lo, hi: r.hi }];
  });
  const uncapped = summary.overall.strict_success;
  if (uncapped.rate !== null) capRows.push({ cap: "no cap", rate: uncapped.rate, lo: uncapped.lo, hi: uncapped.hi });
  return [
    {
      id: "industry-profile",
      title: "Profile by industry",
      caption: "Strict success and its parts (goal, process, protection) per industry, with 95% intervals (bootstrap over tasks).",
      spec: barsWithIntervals(rateRows(summary.by_industry, MEASURES), "group", "measure", Math.max(320, 150 * Object.keys(summary.by_industry).length)),
    },
    {
      id: "conditions",
      title: "Strict success by fault condition",
      caption: "E0 clean, E1 explicit errors, E2 implicit degradation, E3 both; bars are the completion rate, rules the 95% interval.",
      spec: barsWithIntervals(rateRows(summary.by_condition, ["strict_success"]), "group", null, 320),
    },
    {
      id: "pass-hat-k",
      title: "pass^k",
      caption: "Chance that k runs of a task all succeed (unbiased estimator C(c,k)/C(n,k), mean over tasks), per condition.",
      spec: {
        config: CONFIG,
        width: 320,
        height: 220,
        data: { values: passRows },
        mark: { type: "line", point: true },
        encoding: {
          x: { field: "k", type: "ordinal", title: "k", axis: { labelAngle: 0 } },
          y: { field: "value", title: "pass^k", ...RATE_AXIS },
          color: { field: "condition", type: "nominal", title: null },
        },
      } as unknown as TopLevelSpec,
    },
    {
      id: "calls",
      title: "Tool calls against the golden trace",
      caption: `Mean calls per episode by kind, the agent's next to the golden trace's (overall ratio ${eff.total.ratio ?? "n/a"}).`,
      spec: {
        config: CONFIG,
        width: 480,
        height: 220,
        data: { values: callRows },
        mark: { type: "bar" },
        encoding: {
          x: { field: "kind", type: "nominal", sort: null, title: null, axis: { labelAngle: -20 } },
          xOffset: { field: "who", type: "nominal" },
          y: { field: "calls", type: "quantitative", title: "calls per episode" },
          color: { field: "who", type: "nominal", title: null },
        },
      } as unknown as TopLevelSpec,
    },
    {
      id: "caps",
      title: "Strict success under call caps",
      caption: "Strict success if every episode were cut at 1.2×, 1.5× and 2× its golden call count, and without a cap; rules are 95% intervals.",
      spec: {
        config: CONFIG,
        width: 320,
        height: 220,
        data: { values: capRows },
        encoding: { x: { field: "cap", type: "ordinal", sort: null, title: "cap", axis: { labelAngle: 0 } } },
        layer: [
          { mark: { type: "line", point: true }, encoding: { y: { field: "rate", title: "strict success", ...RATE_AXIS } } },
          { mark: { type: "rule", color: "#222" }, encoding: { y: { field: "lo", ...RATE_AXIS, title: "strict success" }, y2: { field: "hi" } } },
        ],
      } as unknown as TopLevelSpec,
    },
  ];
}
