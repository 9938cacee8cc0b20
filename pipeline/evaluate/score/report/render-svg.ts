import { parse, View } from "vega";
import { compile, type TopLevelSpec } from "vega-lite";
import { FoundryError } from "../../../core/errors.js";

/** A logger that keeps warnings and errors, so a spec vega-lite or vega complains about is refused, not rendered half-right. */
function collectingLogger(problems: string[]) {
  let level = 0;
  const logger = {
    level(l?: number) {
      if (l === undefined) return level;
      level = l;
      return logger;
    },
    warn: (...args: readonly unknown[]) => (problems.push(args.map(String).join(" ")), logger),
    error: (...args: readonly unknown[]) => (problems.push(args.map(String).join(" ")), logger),
    info: () => logger,
    debug: () => logger,
  };
  return logger;
}

/**
 * Render a Vega-Lite spec to an SVG string at write time (headless: no canvas, no browser, no
 * network; text widths are vega's estimate, so the bytes are the same on every machine). Element
 * ids are prefixed with `idPrefix` so several charts can sit inline in one page without their
 * clip paths colliding. A spec that draws a warning is refused (REPORT_CHART) naming the chart.
 */
export async function renderSvg(spec: TopLevelSpec, idPrefix: string): Promise<string> {
  const problems: string[] = [];
  const logger = collectingLogger(problems);
  const refuse = (why: string) => new FoundryError("REPORT_CHART", `chart ${idPrefix} does not render cleanly: ${why}`, { path: `charts.${idPrefix}` });
  let vgSpec;
  try {
    vgSpec = compile(spec, { logger: logger as never }).spec;
  } catch (e) {
    throw refuse((e as Error).message);
  }
  const view = new View(parse(vgSpec), { renderer: "none", logger: logger as never, logLevel: 2 });
  try {
    const svg = await view.toSVG();
    if (problems.length > 0) throw refuse(problems.join("; "));
    return svg.replace(/\bid="([^"]+)"/g, `id="${idPrefix}-$1"`).replace(/url\(#([^)]+)\)/g, `url(#${idPrefix}-$1)`);
  } finally {
    view.finalize();
  }
}
