// The in-process event bus for approvals: the SSE stream and the long-poll waiters listen here.
import { EventEmitter } from 'node:events';
import type { Approval } from '../store/types.ts';

export type ApprovalEventType = 'approval.created' | 'approval.resolved' | 'approval.expired' | 'approval.cancelled';

/** One event about one approval. */
export interface ApprovalEvent {
  type: ApprovalEventType;
  approval: Approval;
  /** Made by another replica (or another store on the same database): feeds the review page, not this one's metrics. */
  remote?: boolean;
}

/** A typed wrapper over EventEmitter, without a listener cap (every SSE client is a listener). */
export class ApprovalEvents {
  private readonly emitter = new EventEmitter();
  constructor() {
    this.emitter.setMaxListeners(0);
  }
  emit(event: ApprovalEvent): void {
    this.emitter.emit('event', event);
  }
  /** Subscribes; returns the function that unsubscribes. */
  on(listener: (event: ApprovalEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
  listenerCount(): number {
    return this.emitter.listenerCount('event');
  }
}
