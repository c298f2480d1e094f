import { LOCKSTEP_PRIVATE_SENT_FIELD } from '../../backtest/paper-venue/index.ts';
import type { MarketFrameGate } from '../../core/venue/index.ts';

/** The longest a market frame waits for the private frames sent before it (Keel's choice). */
export const LOCKSTEP_PRIVATE_WAIT_MS = 2000;

/** What the gate needs. */
export interface LockstepPrivateGateOptions {
  /** The longest a market frame is held; then it is handled anyway, with `stalled`. */
  readonly waitMs: number;
  /**
   * A market frame waited `waitMs` for private frames that did not come (lost with a dropped
   * socket, or slow): it is handled now.
   */
  readonly stalled: (expected: number, received: number) => void;
}

/** Holds the lockstep market frames until the private frames the venue sent before them arrived. */
export interface LockstepPrivateGate {
  /** The market-data client's gate. */
  readonly gate: MarketFrameGate;
  /**
   * Takes the text of each private frame as it arrives, before it is handled: counted, and the
   * market frames it completes are handled right after it (a microtask later).
   */
  readonly onPrivateFrame: (text: string) => void;
}

function privateSentOf(text: string): number | undefined {
  if (!text.includes(LOCKSTEP_PRIVATE_SENT_FIELD)) return undefined;
  try {
    const value = (JSON.parse(text) as Record<string, unknown>)[LOCKSTEP_PRIVATE_SENT_FIELD];
    return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isLoginSuccess(text: string): boolean {
  if (!text.includes('"login"')) return false;
  try {
    const frame = JSON.parse(text) as Record<string, unknown>;
    return frame.event === 'login' && frame.code === 0;
  } catch {
    return false;
  }
}

/**
 * The lockstep paper venue sends an event on the market-data socket and the fills it caused on
 * the private one, two connections with no order between them. Each lockstep market frame says
 * how many frames the venue had sent on the session's private connection since its login (see
 * `LOCKSTEP_PRIVATE_SENT_FIELD`): this gate holds it, and every market frame after it, until
 * that many arrived, so the strategies know their fills before the next quote, as in a
 * backtest. A frame held `waitMs` is handled anyway (`stalled`): a lost private frame never
 * freezes the session.
 * @param options - the longest wait and what to do when it runs out
 * @returns the gate and what counts the private frames
 */
export function lockstepPrivateGate(options: LockstepPrivateGateOptions): LockstepPrivateGate {
  let received = 0;
  const held: { readonly expected: number | undefined; readonly handle: () => void }[] = [];
  let timer: NodeJS.Timeout | undefined;
  let drainQueued = false;
  const ready = (expected: number | undefined): boolean => expected === undefined || received >= expected;
  const arm = (): void => {
    clearTimeout(timer);
    timer = held.length === 0 ? undefined : setTimeout(stall, options.waitMs);
  };
  const drain = (): void => {
    const before = held.length;
    while (held.length > 0 && ready(held[0]?.expected)) held.shift()?.handle();
    if (held.length !== before) arm();
  };
  function stall(): void {
    const head = held.shift();
    if (head === undefined) return;
    options.stalled(head.expected ?? 0, received);
    head.handle();
    drain();
    arm();
  }
  const gate: MarketFrameGate = (text, handle) => {
    const expected = privateSentOf(text);
    if (held.length === 0 && ready(expected)) {
      handle();
      return;
    }
    held.push({ expected, handle });
    if (held.length === 1) arm();
  };
  const onPrivateFrame = (text: string): void => {
    // The venue counts from its login reply: so does the session, on each (re)connection.
    if (isLoginSuccess(text)) received = 0;
    else received++;
    if (held.length === 0 || drainQueued) return;
    drainQueued = true;
    // The private frame is handled synchronously after this tap: the market frames go after it.
    queueMicrotask(() => {
      drainQueued = false;
      drain();
    });
  };
  return { gate, onPrivateFrame };
}
