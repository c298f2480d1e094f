/**
 * A reference Keel generated in a live or paper run: `{strategy id}-{run tag}-{counter}`, possibly
 * followed by a venue child's suffix (`-tp`, `-sl`, `-trig`, a close order's `-1`...). Strategy ids
 * hold no `-`, so the first segment names the strategy unambiguously.
 */
const GENERATED_REF = /^([A-Za-z0-9_]{1,24})-[A-Za-z0-9]{1,8}-[0-9a-z]+(?:-|$)/;

/**
 * The strategy whose generated reference an order of an earlier run carries: after a restart the
 * same strategy id is back under a new run tag, and its orders still resting on the venue are its
 * own again (Keel's choice: adopted by the id prefix of the clientOrderId). A custom reference
 * that happens to look generated is adopted the same way.
 * @param ref - a clientOrderId or clientAlgoOrderId no strategy of this run placed
 * @param strategyIds - the ids of this run's strategies
 * @returns the strategy id, or undefined when the reference names none of them
 */
export function generatedRefOwner(ref: string, strategyIds: ReadonlySet<string>): string | undefined {
  const id = GENERATED_REF.exec(ref)?.[1];
  return id !== undefined && strategyIds.has(id) ? id : undefined;
}
