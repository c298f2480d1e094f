import { monotonicOf, type TimerPort } from '../timer-port.ts';

/** How a socket is kept alive and watched: a ping every `intervalMs`, dead after `silentIntervals` of them without a frame. */
export interface HeartbeatPolicy {
  /** Interval of the pings, ms. */
  readonly intervalMs: number;
  /**
   * How many intervals may pass without any inbound frame (data, pong, reply) before the socket is
   * taken for dead although it is open. At least 2: with 1, a pong answering its ping a little
   * late races the verdict.
   */
  readonly silentIntervals: number;
}

/**
 * The heartbeat of both venue sockets when the config says nothing (Keel's choice): a ping every
 * 5 s, the socket dead after 15 s without a frame. A link that stays open but carries nothing is
 * found within 15 s of its last frame, while a pong may come up to 10 s late (a loaded venue, a
 * busy event loop) before a healthy socket is dropped. The venue closes connections idle for 30 s.
 */
export const DEFAULT_HEARTBEAT: HeartbeatPolicy = { intervalMs: 5_000, silentIntervals: 3 };

/** What a heartbeat does: send a ping, and give the socket up. */
export interface HeartbeatActions {
  /** Sends one ping. */
  readonly ping: () => void;
  /**
   * The socket was silent for the policy's limit, or through a probe (see {@link Heartbeat.probe}):
   * the heartbeat has stopped itself.
   * @param silentMs - how long nothing came, whole ms
   * @param probed - true when the probe's ping went unanswered too, before the limit
   */
  readonly silent: (silentMs: number, probed: boolean) => void;
}

/**
 * A socket's ping timer and silence watchdog. The watchdog fires when nothing was heard for
 * `silentIntervals` x `intervalMs` since the last frame, not at the next ping after that, so the
 * verdict comes at the limit, not up to an interval later; while frames come it wakes about once
 * per limit, however many frames there are. Silence is measured on the timer's monotonic reading,
 * so a wall-clock step neither trips nor delays it.
 */
export class Heartbeat {
  private lastHeard = 0;
  /** When the probe under way pinged, if one is (see {@link Heartbeat.probe}). */
  private probedAt: number | undefined;
  private running = false;
  private cancelPing: () => void = () => {};
  private cancelWatchdog: () => void = () => {};

  /**
   * @param timer - the timers and the monotonic clock
   * @param policy - interval and silent intervals (read by the owner for its messages)
   * @param actions - the ping and the verdict
   */
  constructor(
    private readonly timer: TimerPort,
    readonly policy: HeartbeatPolicy,
    private readonly actions: HeartbeatActions,
  ) {}

  /** The silence that makes the verdict, ms. */
  private get limitMs(): number {
    return this.policy.intervalMs * this.policy.silentIntervals;
  }

  /** Starts pinging and watching, counting the silence from now (a socket just opened or logged in). */
  start(): void {
    this.stop();
    this.running = true;
    this.lastHeard = monotonicOf(this.timer);
    this.schedulePing();
    this.armWatchdog(this.limitMs);
  }

  /** A frame came: the silence starts again. Cheap: no timer is touched. */
  heard(): void {
    this.lastHeard = monotonicOf(this.timer);
  }

  /**
   * Something sent at `sentAt` went unanswered (a request timed out): when nothing at all came
   * since, the link may be dead, so it is pinged now and given up unless a frame comes within one
   * interval, sooner than the silence limit would. Nothing is done when a frame came since, a
   * probe is under way, or the limit comes first anyway.
   * @param sentAt - when it was sent, on the timer's monotonic reading
   * @returns whether a probe started
   */
  probe(sentAt: number): boolean {
    if (!this.running || this.probedAt !== undefined || this.lastHeard > sentAt) return false;
    const now = monotonicOf(this.timer);
    if (now + this.policy.intervalMs >= this.lastHeard + this.limitMs) return false;
    this.probedAt = now;
    this.actions.ping();
    this.cancelWatchdog();
    this.armWatchdog(this.policy.intervalMs);
    return true;
  }

  /** Stops pinging and watching (the socket dropped or closed). */
  stop(): void {
    this.running = false;
    this.probedAt = undefined;
    this.cancelPing();
    this.cancelWatchdog();
  }

  private schedulePing(): void {
    this.cancelPing = this.timer.setTimer(() => {
      if (!this.running) return;
      this.actions.ping();
      this.schedulePing();
    }, this.policy.intervalMs);
  }

  private armWatchdog(ms: number): void {
    this.cancelWatchdog = this.timer.setTimer(() => {
      if (!this.running) return;
      const now = monotonicOf(this.timer);
      const silentMs = now - this.lastHeard;
      const probedAt = this.probedAt;
      // A frame since the probe's ping ends the probe: the link is alive.
      const probing = probedAt !== undefined && this.lastHeard < probedAt;
      if (!probing) this.probedAt = undefined;
      const probeLeft = probing ? probedAt + this.policy.intervalMs - now : Number.POSITIVE_INFINITY;
      if (silentMs < this.limitMs && probeLeft > 0) {
        this.armWatchdog(Math.min(this.limitMs - silentMs, probeLeft));
        return;
      }
      this.stop();
      this.actions.silent(Math.round(silentMs), silentMs < this.limitMs);
    }, ms);
  }
}
