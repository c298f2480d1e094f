import type { Logger } from 'pino';
import type { Intent, StrategyIntent } from '../../model/index.ts';

/**
 * Sends a command and settles when the venue has answered it: its reply (or refusal) came, its
 * request failed, or, its reply lost, the lookup of its outcome ended. Never rejects.
 */
export type SendCommand = () => Promise<void>;

/** What {@link SymCommandOrder} needs besides the commands. */
export interface SymCommandOrderOptions {
  /**
   * Tells the sender that a held command was never sent (the client stopped first): a REJECTED
   * order for a place, a refusal for any other command.
   */
  readonly notSent: (command: StrategyIntent, reason: string) => void;
  readonly logger: Logger;
}

/** Every sym at once: a command without a sym (a loan, the position mode, a cancel of all syms). */
const ALL_SYMS = '*';

/** A command submitted and not answered yet. */
interface Pending {
  readonly command: StrategyIntent;
  /** The syms it acts on, or {@link ALL_SYMS}. */
  readonly syms: readonly string[];
  /** It goes over REST, where requests sent one after the other may reach the venue in either order. */
  readonly rest: boolean;
  readonly send: SendCommand;
  sent: boolean;
}

/**
 * Keeps the commands on a sym in the order they were submitted on their way to the venue, across
 * its two channels. Orders, amendments and cancels go over the WebSocket, whose frames reach the
 * venue in the order sent; algo orders, position closes, loans and the position mode go over
 * REST, whose requests may overtake each other and the socket's frames. So a command goes at once
 * when nothing submitted before it on its syms is still unanswered, or when it and everything
 * unanswered before it go over the socket; otherwise it is held until those are answered, then
 * sent, held commands in the order submitted, whatever the answer (accepted, refused, or a lost
 * reply looked up): never dropped, never sent twice. A close followed by an order the other way
 * thus reaches the venue as the simulated venue runs it: the close first. A command without a sym
 * (a loan, the position mode, a cancel without a sym) is ordered with the commands of every sym.
 * Commands on different syms are not ordered with each other.
 */
export class SymCommandOrder {
  /** Commands submitted and not answered, held ones included, in the order submitted. */
  private readonly pending: Pending[] = [];
  /** Told once no command is held any more. */
  private idleWaiters: (() => void)[] = [];
  /** Told once a held command is sent or reported never sent. */
  private releaseWaiters: (() => void)[] = [];
  private stopped = false;

  /** @param options - where a command never sent is reported, and the log */
  constructor(private readonly options: SymCommandOrderOptions) {}

  /**
   * Sends the command now, or holds it behind the unanswered commands it must not overtake.
   * @param command - the approved command
   * @param send - sends it, settling when the venue answered
   */
  submit(command: StrategyIntent, send: SendCommand): void {
    const entry: Pending = {
      command,
      syms: symsOf(command.intent),
      rest: goesOverRest(command.intent),
      send,
      sent: false,
    };
    this.pending.push(entry);
    const before = this.blocker(this.pending.length - 1);
    if (before === undefined) {
      this.send(entry);
      return;
    }
    if (this.stopped) {
      this.pending.pop();
      this.deny(entry, before);
      return;
    }
    this.options.logger.debug(
      { ref: command.intent.ref, kind: command.intent.kind, before: before.command.intent.ref },
      'command held until the command before it on its sym is answered',
    );
  }

  /**
   * The client is stopping: every held command is reported never sent (in the order submitted),
   * and none is sent any more.
   */
  stop(): void {
    this.stopped = true;
    for (let i = 0; i < this.pending.length; i++) {
      const entry = this.pending[i];
      if (entry === undefined || entry.sent) continue;
      const before = this.blocker(i);
      this.pending.splice(i--, 1);
      this.deny(entry, before);
    }
    this.wakeReleaseWaiters();
    this.wakeIdleWaiters();
  }

  /** How many commands are held, not sent yet. */
  get held(): number {
    return this.pending.filter((entry) => !entry.sent).length;
  }

  /**
   * For a lockstep session, whose acknowledgement of a market event must follow every command
   * the event made (the paper venue releases nothing more until it has them).
   * @returns settles once no command is held any more (each sent, or reported never sent);
   *   undefined when none is held now
   */
  idle(): Promise<void> | undefined {
    if (this.held === 0) return undefined;
    return new Promise<void>((resolve) => {
      this.idleWaiters.push(resolve);
    });
  }

  /**
   * For a lockstep session, which tells the venue again that it holds commands each time one of
   * them goes out while others stay held (the venue runs what is due before its next event on
   * each such word, so a command a released one waits for reaches the matching engine too).
   * @returns settles once a held command is sent or reported never sent; undefined when none is
   *   held now
   */
  released(): Promise<void> | undefined {
    if (this.held === 0) return undefined;
    return new Promise<void>((resolve) => {
      this.releaseWaiters.push(resolve);
    });
  }

  /** The first command before the one at `index` that it must wait for, if any. */
  private blocker(index: number): Pending | undefined {
    const entry = this.pending[index];
    if (entry === undefined) return undefined;
    for (let i = 0; i < index; i++) {
      const before = this.pending[i];
      if (before === undefined || !overlap(before.syms, entry.syms)) continue;
      if (!before.sent || before.rest || entry.rest) return before;
    }
    return undefined;
  }

  private send(entry: Pending): void {
    entry.sent = true;
    let answered: Promise<void>;
    try {
      answered = entry.send();
    } catch (error) {
      this.options.logger.error(
        { ref: entry.command.intent.ref, kind: entry.command.intent.kind, err: String(error) },
        'sending a command failed',
      );
      answered = Promise.resolve();
    }
    void answered
      .catch((error: unknown) =>
        this.options.logger.error(
          { ref: entry.command.intent.ref, kind: entry.command.intent.kind, err: String(error) },
          'reporting the answer to a command failed',
        ),
      )
      .then(() => this.answered(entry));
  }

  /** The venue answered: the commands held behind it that nothing else holds go, in order. */
  private answered(entry: Pending): void {
    const at = this.pending.indexOf(entry);
    if (at >= 0) this.pending.splice(at, 1);
    if (this.stopped) return;
    // Indexed over the live list: a command submitted while one is sent (by a hook the send's
    // events ran) is appended and looked at in turn.
    let released = false;
    for (let i = 0; i < this.pending.length; i++) {
      const held = this.pending[i];
      if (held !== undefined && !held.sent && this.blocker(i) === undefined) {
        this.send(held);
        released = true;
      }
    }
    if (released) this.wakeReleaseWaiters();
    this.wakeIdleWaiters();
  }

  private wakeReleaseWaiters(): void {
    const waiters = this.releaseWaiters;
    this.releaseWaiters = [];
    for (const wake of waiters) wake();
  }

  private wakeIdleWaiters(): void {
    if (this.idleWaiters.length === 0 || this.held > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }

  private deny(entry: Pending, before: Pending | undefined): void {
    const intent = entry.command.intent;
    const front =
      before === undefined ? 'a command' : `${before.command.intent.kind} ${before.command.intent.ref}`;
    const reason =
      `${intent.kind} ${intent.ref} not sent: the client stopped while it waited for ${front}, ` +
      `submitted before it on ${describeSyms(entry.syms)}, to be answered (commands on a sym reach the venue in the order submitted)`;
    this.options.logger.warn({ ref: intent.ref, kind: intent.kind }, reason);
    this.options.notSent(entry.command, reason);
  }
}

/** The syms an intent acts on; {@link ALL_SYMS} for one without a sym or whose sym is not known. */
function symsOf(intent: Intent): readonly string[] {
  switch (intent.kind) {
    case 'placeOrder':
    case 'modifyOrder':
    case 'cancelOrder':
    case 'closePosition':
    case 'placeAlgoOrder':
    case 'replaceAlgoOrder':
    case 'cancelAlgoOrder':
      // A replace or cancel of an algo order whose placement the kernel has not seen has no sym.
      return intent.sym === '' ? [ALL_SYMS] : [intent.sym];
    case 'cancelOrders':
    case 'cancelAllAlgoOrders':
      return intent.sym === undefined || intent.sym === '' ? [ALL_SYMS] : [intent.sym];
    case 'closePositions':
      return intent.symList;
    case 'borrow':
    case 'repay':
    case 'setPositionMode':
      // A loan moves the margin every sym trades on, the position mode applies to every sym.
      return [ALL_SYMS];
  }
}

function goesOverRest(intent: Intent): boolean {
  switch (intent.kind) {
    case 'placeOrder':
    case 'modifyOrder':
    case 'cancelOrder':
    case 'cancelOrders':
      return false;
    default:
      return true;
  }
}

function overlap(a: readonly string[], b: readonly string[]): boolean {
  if (a.includes(ALL_SYMS) || b.includes(ALL_SYMS)) return true;
  return a.some((sym) => b.includes(sym));
}

function describeSyms(syms: readonly string[]): string {
  return syms.includes(ALL_SYMS) ? 'every sym' : syms.join(', ');
}
