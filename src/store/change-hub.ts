// In-process change announcements between SQLite stores opened on the same file (the PostgreSQL store uses NOTIFY).
import type { StoreChange } from './types.ts';

type Listener = (change: StoreChange) => void;

/** One member: a store instance, with the listeners subscribed through it. */
export interface HubMember {
  listeners: Set<Listener>;
}

/**
 * Every store opened on one database file in this process shares a hub: a change made through one is announced
 * to the listeners of the others (never to its own: the store's owner already acted on it). `:memory:` databases
 * are private, so each gets a hub of its own.
 */
export class ChangeHub {
  private static readonly hubs = new Map<string, ChangeHub>();
  private readonly members = new Set<HubMember>();

  private constructor(private readonly path: string | undefined) {}

  static for(path: string): ChangeHub {
    if (path === ':memory:' || path === '') return new ChangeHub(undefined);
    let hub = ChangeHub.hubs.get(path);
    if (!hub) ChangeHub.hubs.set(path, (hub = new ChangeHub(path)));
    return hub;
  }

  join(): HubMember {
    const member = { listeners: new Set<Listener>() };
    this.members.add(member);
    return member;
  }

  leave(member: HubMember): void {
    this.members.delete(member);
    member.listeners.clear();
    if (this.members.size === 0 && this.path !== undefined && ChangeHub.hubs.get(this.path) === this)
      ChangeHub.hubs.delete(this.path);
  }

  listen(member: HubMember, listener: Listener): () => void {
    member.listeners.add(listener);
    return () => void member.listeners.delete(listener);
  }

  /** Announces to the other members, after the current call stack (the change has committed by then). */
  publish(from: HubMember, change: StoreChange): void {
    if (this.members.size < 2) return;
    for (const member of this.members) {
      if (member === from) continue;
      for (const listener of member.listeners) queueMicrotask(() => listener(change));
    }
  }
}
