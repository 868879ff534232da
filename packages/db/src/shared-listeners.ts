/** What one LISTEN subscriber is told. */
export interface ListenHandlers {
  notification(payload: string): void;
  /** true once listening (again); false when the connection is lost and notifications may be
   * missed until the next true. PostgreSQL reconnects by itself; PGlite never loses it. */
  live(isLive: boolean): void;
}

type Subscribe = (channel: string, handlers: ListenHandlers) => Promise<() => Promise<void>>;

interface Shared {
  handlers: Set<ListenHandlers>;
  /** The one underlying subscription, started by the first subscriber. */
  started: Promise<() => Promise<void>>;
  live: boolean;
}

/**
 * Several parts of one process LISTEN on the same channel (the server's caches, the embedded
 * gateway's credential and routing-rule caches): they share one underlying subscription — on
 * PostgreSQL one dedicated connection per channel instead of one per part — and each is told
 * the same notifications and the same live/lost states.
 */
export function sharedListeners(subscribe: Subscribe) {
  const channels = new Map<string, Shared>();

  return async function listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>> {
    let shared = channels.get(channel);
    if (!shared) {
      const fresh: Shared = { handlers: new Set(), live: false, started: Promise.resolve(async () => {}) };
      fresh.started = subscribe(channel, {
        notification(payload) {
          for (const each of fresh.handlers) each.notification(payload);
        },
        live(isLive) {
          fresh.live = isLive;
          for (const each of fresh.handlers) each.live(isLive);
        },
      });
      channels.set(channel, fresh);
      shared = fresh;
    }
    const current = shared;
    try {
      await current.started;
    } catch (error) {
      if (channels.get(channel) === current) channels.delete(channel);
      throw error;
    }
    // Joins once subscribed, told the state the others were told (notifications start now). Each
    // subscription is its own member, even when two pass the same handlers object.
    const member: ListenHandlers = { notification: handlers.notification, live: handlers.live };
    if (current.live) member.live(true);
    current.handlers.add(member);
    return async () => {
      if (!current.handlers.delete(member) || current.handlers.size > 0) return;
      if (channels.get(channel) === current) channels.delete(channel);
      await (await current.started)();
    };
  };
}
