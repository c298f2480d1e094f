import { Observable, type Subscriber } from 'rxjs';

/** An event stream and the function that sends on it. */
export interface EventFanOut<T> {
  /** Every subscriber gets each event sent after it subscribed, until it unsubscribes. */
  readonly events: Observable<T>;
  /** Sends an event to the subscribers of the moment. */
  readonly emit: (event: T) => void;
}

/**
 * A hot event stream, as a Subject's `asObservable()` is, without the Subject's per-event iterator:
 * the venue sends several User Data events per order change. Subscribers are held in an array
 * replaced on every (un)subscription, so one sending goes to those subscribed when it started.
 * @returns the stream and its sender
 */
export function eventFanOut<T>(): EventFanOut<T> {
  let subscribers: readonly Subscriber<T>[] = [];
  const events = new Observable<T>((subscriber) => {
    subscribers = [...subscribers, subscriber];
    return () => {
      subscribers = subscribers.filter((s) => s !== subscriber);
    };
  });
  const emit = (event: T): void => {
    const now = subscribers;
    for (let i = 0; i < now.length; i++) (now[i] as Subscriber<T>).next(event);
  };
  return { events, emit };
}
