import type { AlgoCancelReason, AlgoOrder, AlgoOrderPending } from '../model/index.ts';
import { isFinalAlgoState } from '../model/index.ts';

/** What a request in flight asks of the algo orders it reaches. */
export type AlgoRequestKind = 'cancel' | 'replace' | 'close';

/** One request in flight on one algo order. */
interface AlgoRequest {
  readonly ref: string;
  readonly kind: AlgoRequestKind;
}

const NONE: readonly AlgoRequest[] = [];

/**
 * Keel's requests on algo orders the venue has not answered yet, by the algo order's reference:
 * the cancels and replaces sent for it, and the position closes sent on its sym (the venue cancels
 * the reduce-only algo orders there first). From them the kernel marks an algo order `pending`
 * while a cancel or replace of it travels, so a strategy does not send a second cancel the venue
 * refuses (401058), and tells why one ended CANCELLED ({@link AlgoCancelReason}). A request leaves
 * at its answer: the venue's next report of a replaced algo order, the algo order's final state,
 * or a refusal of the request.
 */
export class AlgoOrderRequests {
  private readonly byAlgo = new Map<string, AlgoRequest[]>();
  /** The algo orders each request reaches, by the request's reference. */
  private readonly targets = new Map<string, readonly string[]>();

  /**
   * Records a request about to be sent.
   * @param ref - the request's reference
   * @param kind - what it asks
   * @param algoRefs - the algo orders it reaches, by clientAlgoOrderId
   */
  sent(ref: string, kind: AlgoRequestKind, algoRefs: readonly string[]): void {
    if (algoRefs.length === 0) return;
    this.targets.set(ref, algoRefs);
    for (const algoRef of algoRefs) {
      const requests = this.byAlgo.get(algoRef);
      if (requests === undefined) this.byAlgo.set(algoRef, [{ ref, kind }]);
      else requests.push({ ref, kind });
    }
  }

  /**
   * A request was refused (or its outcome is unknown): it no longer marks its algo orders.
   * @param ref - the request's reference
   * @returns the algo orders it reached, whose marks may have changed
   */
  refused(ref: string): readonly string[] {
    const algoRefs = this.targets.get(ref);
    if (algoRefs === undefined) return [];
    this.targets.delete(ref);
    for (const algoRef of algoRefs) {
      const left = (this.byAlgo.get(algoRef) ?? NONE).filter((request) => request.ref !== ref);
      this.set(algoRef, left);
    }
    return algoRefs;
  }

  /**
   * The venue reported an algo order: a final state answers every request on it; any other report
   * answers the oldest replace on it (a cancel's answer is a final state or a refusal, a close's
   * the cancel it makes).
   * @param algo - the algo order as reported
   * @returns why it was cancelled, as far as the requests on it tell, when it ended CANCELLED
   */
  reported(algo: AlgoOrder): AlgoCancelReason | undefined {
    const algoRef = algo.clientAlgoOrderId;
    const requests = this.byAlgo.get(algoRef);
    if (requests === undefined) return undefined;
    if (!isFinalAlgoState(algo.state)) {
      const replace = requests.findIndex((request) => request.kind === 'replace');
      if (replace >= 0) this.answer(algoRef, requests, replace);
      return undefined;
    }
    for (const request of requests) this.forgetTarget(request.ref, algoRef);
    this.byAlgo.delete(algoRef);
    if (algo.state !== 'CANCELLED') return undefined;
    if (requests.some((request) => request.kind === 'cancel')) return 'cancel';
    return requests.some((request) => request.kind === 'close') ? 'closePosition' : undefined;
  }

  /**
   * @param algoRef - an algo order's clientAlgoOrderId
   * @returns its mark: CANCEL while a cancel of it is in flight, else REPLACE while a replace is
   */
  pendingOf(algoRef: string): AlgoOrderPending | undefined {
    const requests = this.byAlgo.get(algoRef);
    if (requests === undefined) return undefined;
    if (requests.some((request) => request.kind === 'cancel')) return 'CANCEL';
    return requests.some((request) => request.kind === 'replace') ? 'REPLACE' : undefined;
  }

  private answer(algoRef: string, requests: readonly AlgoRequest[], index: number): void {
    const answered = requests[index] as AlgoRequest;
    this.forgetTarget(answered.ref, algoRef);
    this.set(
      algoRef,
      requests.filter((_, i) => i !== index),
    );
  }

  /** Takes one algo order out of a request's targets; a request left with none is forgotten. */
  private forgetTarget(ref: string, algoRef: string): void {
    const algoRefs = this.targets.get(ref);
    if (algoRefs === undefined) return;
    const left = algoRefs.filter((target) => target !== algoRef);
    if (left.length === 0) this.targets.delete(ref);
    else this.targets.set(ref, left);
  }

  private set(algoRef: string, requests: AlgoRequest[]): void {
    if (requests.length === 0) this.byAlgo.delete(algoRef);
    else this.byAlgo.set(algoRef, requests);
  }
}
