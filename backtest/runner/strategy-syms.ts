/**
 * Every string in a params value, nested ones included.
 * @param value - a strategy's params (any JSON-like value)
 * @param out - the set to add to
 * @returns `out`, with the strings added
 */
export function stringsIn(value: unknown, out: Set<string>): Set<string> {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, out);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) stringsIn(item, out);
  return out;
}

/**
 * The run's instruments the strategies name in their params: how a Keel strategy takes the syms
 * it subscribes to and trades (`params.sym`), read without running it.
 * @param strategies - the strategies, with their raw params
 * @param instrumentSyms - the run's instruments
 * @returns the named instruments, in strategy order, each once
 */
export function symsNamedBy(
  strategies: readonly { readonly params?: unknown }[],
  instrumentSyms: readonly string[],
): string[] {
  const named = new Set<string>();
  for (const strategy of strategies) {
    for (const value of stringsIn(strategy.params, new Set()))
      if (instrumentSyms.includes(value)) named.add(value);
  }
  return [...named];
}
