import type { WebSocket } from 'ws';
import type { TimerPort } from '../../core/venue/index.ts';
import type { PaperFaults } from './faults.ts';
import { sendToReader } from './slow-consumer.ts';

/** Sends a connection's pushes through the injected push faults (delay, duplicate, reorder). */
export class PushPipe {
  private parked: string | undefined;

  /**
   * @param ws - the socket
   * @param faults - the venue's fault switches
   * @param timer - wall-clock timers for delays
   * @param sent - called for each frame put on its way (a delayed one included)
   */
  constructor(
    private readonly ws: WebSocket,
    private readonly faults: PaperFaults,
    private readonly timer: TimerPort,
    private readonly sent: () => void,
  ) {}

  /**
   * Sends one push, applying whatever push faults are switched on.
   * @param frame - the frame text
   */
  send(frame: string): void {
    if (this.parked === undefined && this.faults.reorderPushes > 0) {
      this.faults.reorderPushes--;
      this.parked = frame;
      return;
    }
    this.deliver(frame);
    if (this.parked !== undefined) {
      const parked = this.parked;
      this.parked = undefined;
      this.deliver(parked);
    }
  }

  private deliver(frame: string): void {
    const copies = this.faults.duplicatePushes > 0 ? 2 : 1;
    if (copies === 2) this.faults.duplicatePushes--;
    for (let i = 0; i < copies; i++) {
      // On its way from here: a delayed push is counted as sent, as one slowed on the network.
      this.sent();
      if (this.faults.pushDelayMs > 0) {
        this.timer.setTimer(() => this.sendNow(frame), this.faults.pushDelayMs);
      } else {
        this.sendNow(frame);
      }
    }
  }

  private sendNow(frame: string): void {
    sendToReader(this.ws, frame);
  }
}
