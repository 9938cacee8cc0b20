/** `--sizes 1000,10000`: two or more whole numbers from 1 up, in increasing order (the last is the one targets are judged at), or `fallback`. */
export function sizesArg(fallback: readonly number[]): number[] {
  const i = process.argv.indexOf("--sizes");
  if (i < 0) return [...fallback];
  const raw = process.argv[i + 1] ?? "";
  const sizes = raw.split(",").map(Number);
  if (sizes.length < 2 || sizes.some((n, k) => !Number.isInteger(n) || n < 1 || (k > 0 && n <= (sizes[k - 1] as number)))) {
    console.error(`Expected \`--sizes\` to be two or more increasing whole numbers, e.g. 1000,10000; got \`${raw}\``);
    process.exit(2);
  }
  return sizes;
}
