import type { StrategySlot } from '../../core/kernel/index.ts';
import type { Order } from '../../core/model/index.ts';
import { aRecordingKernelRig, type RecordingKernelRig } from './kernel-builders.ts';
import { anOrderUpdate } from './kernel-events.ts';

/**
 * A live or paper session restarted with the orders its earlier run left on the venue: a tagged
 * run (`runId`) whose strategies start once those orders were reported, so they adopt them.
 * @param slot - the strategy (its earlier run's orders are named `<id>-tow6r1fr-<n>`)
 * @param leftOver - the venue's open orders
 * @returns the started rig, its strategies started
 */
export async function aRestartedStrategyRig(
  slot: StrategySlot,
  leftOver: readonly Order[],
): Promise<RecordingKernelRig> {
  let reconciled: () => void = () => undefined;
  const rig = aRecordingKernelRig([slot], {
    runId: 'tow6ub4z',
    strategiesAfter: new Promise<void>((resolve) => {
      reconciled = resolve;
    }),
  });
  for (const order of leftOver) rig.port.emit(anOrderUpdate(order, 1));
  reconciled();
  await new Promise((resolve) => setImmediate(resolve));
  return rig;
}

/** @returns the commands a rig's port was sent, as `kind target price` lines */
export function sentLines(rig: RecordingKernelRig): string[] {
  return rig.port.submitted.map((c) => {
    const i = c.intent;
    const target = 'target' in i ? ` ${i.target}` : '';
    const price = 'price' in i && i.price !== undefined ? ` ${i.price.toFixed(1)}` : '';
    const side = 'side' in i ? ` ${i.side}` : '';
    return `${i.kind}${side}${target}${price}`;
  });
}
