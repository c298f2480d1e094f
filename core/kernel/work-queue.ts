/**
 * The kernel's strictly sequential work: a job (an event, a denial, a timer wake-up) that arrives
 * while another is being handled - e.g. a venue answer emitted synchronously from `submit` - waits
 * in a backlog and is handled right after, so hooks never run re-entrantly and the order of work
 * is deterministic.
 */
export class WorkQueue<J> {
  private readonly backlog: J[] = [];
  private backlogHead = 0;
  private running = false;
  private turns = 0;

  /** @param handle - handles one job */
  constructor(private readonly handle: (job: J) => void) {}

  /** @returns true while a job or a piece of work is being handled */
  get busy(): boolean {
    return this.running;
  }

  /**
   * The number of the job or piece of work being handled (the last one when idle): each gets the
   * next, so every hook call it makes, and every intent that call sends, is told apart from those
   * of any other job by this number, whatever the clock says.
   */
  get turn(): number {
    return this.turns;
  }

  /** Counts what follows as a job of its own (each timer fired inside one piece of work). */
  beginTurn(): void {
    this.turns++;
  }

  /**
   * Handles a job now, or after the current work when busy.
   * @param job - the job
   */
  enqueue(job: J): void {
    if (this.running) {
      this.backlog.push(job);
      return;
    }
    this.running = true;
    this.turns++;
    try {
      this.handle(job);
      if (this.backlog.length > 0) this.drain();
    } finally {
      this.running = false;
    }
  }

  /**
   * Runs a piece of work as a job (then the backlog it left), or inline when already busy.
   * @param work - the work
   */
  run(work: () => void): void {
    this.runWith(callWork, work);
  }

  /**
   * {@link WorkQueue.run} for work that takes one argument: a caller that runs work on every
   * event (time moving on) passes a function made once, not a closure made per call.
   * @param work - the work
   * @param arg - what it is run on
   */
  runWith<A>(work: (arg: A) => void, arg: A): void {
    if (this.running) {
      work(arg);
      return;
    }
    this.running = true;
    this.turns++;
    try {
      work(arg);
      if (this.backlog.length > 0) this.drain();
    } finally {
      this.running = false;
    }
  }

  /**
   * Puts a job at the end of the backlog, to be handled once the current work is done.
   * @param job - the job
   */
  defer(job: J): void {
    this.backlog.push(job);
  }

  /** Handles the backlog now, from inside the current work (a timer's intents are answered before the next timer). */
  drainPending(): void {
    if (this.backlog.length > 0) this.drain();
  }

  /** FIFO over the backlog; re-entrant (a timer fired while draining drains too) through the shared head. */
  private drain(): void {
    const backlog = this.backlog;
    while (this.backlogHead < backlog.length) {
      const job = backlog[this.backlogHead++] as J;
      this.turns++;
      this.handle(job);
    }
    backlog.length = 0;
    this.backlogHead = 0;
  }
}

function callWork(work: () => void): void {
  work();
}
