import type { Kernel } from '../../core/kernel/index.ts';
import type { SimVenue } from '../sim/index.ts';

/**
 * The venue publishes balances only when they change: the kernel learns the starting ones here.
 * @param kernel - the run's kernel
 * @param sim - a simulated venue holding the starting balances
 * @param ts - the time the balances are stamped with, epoch ms
 */
export async function seedKernelWithBalances(kernel: Kernel, sim: SimVenue, ts: number): Promise<void> {
  const snapshot = await sim.snapshot();
  for (const asset of snapshot.assets) kernel.push({ kind: 'asset', ts, recvTs: ts, asset });
  if (snapshot.account !== undefined)
    kernel.push({ kind: 'account', ts, recvTs: ts, account: snapshot.account });
}
