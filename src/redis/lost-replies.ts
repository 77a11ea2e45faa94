/**
 * Replies lost with their connection. An ioredis client made as the README says
 * (`autoResendUnfulfilledCommands: false`, `enableOfflineQueue: false`) drops the commands whose
 * replies were lost when its connection closed, without rejecting them: their callers would wait
 * for a timeout. Each script call of such a client is told at once instead (`close`). Other clients
 * resend those commands or queue them, so a call may still run: they are left to their timeout.
 */

/** What the client's options say about commands in flight when its connection closes. */
interface ClientEmitter {
  on(event: 'close', listener: () => void): unknown;
  options?: { autoResendUnfulfilledCommands?: unknown; enableOfflineQueue?: unknown };
}

/** The calls waiting for a reply, per client that drops lost commands (one `close` listener each). */
const waiting = new WeakMap<object, Set<(error: Error) => void>>();

const dropsLostCommands = (client: object): client is ClientEmitter => {
  const { on, options } = client as Partial<ClientEmitter>;
  return (
    typeof on === 'function' &&
    options?.autoResendUnfulfilledCommands === false &&
    options.enableOfflineQueue === false
  );
};

/**
 * Calls `lost` if `client`'s connection closes before the call that registers it has its reply (a
 * client that drops such commands); returns the function that unregisters it, once the reply came.
 */
export function whenReplyLost(client: object, lost: (error: Error) => void): () => void {
  if (!dropsLostCommands(client)) return () => {};
  let calls = waiting.get(client);
  if (!calls) {
    const registered = new Set<(error: Error) => void>();
    client.on('close', () => {
      const error = new Error('Connection closed before the reply came (the command may have run)');
      for (const call of [...registered]) call(error);
      registered.clear();
    });
    waiting.set(client, registered);
    calls = registered;
  }
  const set = calls;
  set.add(lost);
  return () => set.delete(lost);
}
