import { Observable } from 'rxjs';

/** Anything stamped with a venue time. */
interface Timed {
  readonly ts: number;
}

/**
 * Merges recorded feeds into one stream in time order (a k-way merge): an event is released
 * once every feed that has not completed holds at least one event, so the smallest `ts` is
 * known; ties go to the earlier feed in the list, then to arrival order. Meant for recorded or
 * synthetic feeds (each sorted by `ts`). Live feeds already arrive in time order: merge them
 * with RxJS `merge` instead, since a quiet live feed would hold the others back here.
 * @param feeds - feeds, each sorted by `ts`
 * @returns one feed sorted by `ts`
 * @example
 * const market = mergeByTime([btcQuotes$, ethQuotes$, btcTrades$]);
 */
export function mergeByTime<T extends Timed>(feeds: readonly Observable<T>[]): Observable<T> {
  if (feeds.length === 1) return feeds[0] as Observable<T>;
  return new Observable<T>((subscriber) => {
    const queues: T[][] = feeds.map(() => []);
    const heads: number[] = feeds.map(() => 0);
    const done: boolean[] = feeds.map(() => false);
    let completed = 0;

    const release = (): void => {
      for (;;) {
        let best = -1;
        let bestTs = Number.POSITIVE_INFINITY;
        for (let i = 0; i < queues.length; i++) {
          const queue = queues[i] as T[];
          const head = heads[i] as number;
          if (head >= queue.length) {
            if (!done[i]) return;
            continue;
          }
          const ts = (queue[head] as T).ts;
          if (ts < bestTs) {
            bestTs = ts;
            best = i;
          }
        }
        if (best < 0) return;
        const queue = queues[best] as T[];
        const head = heads[best] as number;
        const event = queue[head] as T;
        heads[best] = head + 1;
        if (head + 1 === queue.length) {
          queue.length = 0;
          heads[best] = 0;
        }
        subscriber.next(event);
      }
    };

    const subscriptions = feeds.map((feed, i) =>
      feed.subscribe({
        next: (event) => {
          (queues[i] as T[]).push(event);
          release();
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => {
          done[i] = true;
          completed++;
          release();
          if (completed === feeds.length) subscriber.complete();
        },
      }),
    );
    return () => {
      for (const subscription of subscriptions) subscription.unsubscribe();
    };
  });
}
