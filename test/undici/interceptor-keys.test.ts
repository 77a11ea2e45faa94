import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { headwayInterceptor } from '../../src/undici/interceptor.js';

/** A next dispatcher that answers every dispatch 200 in a microtask, with no rate-limit headers. */
const answering: Dispatcher.Dispatch = (_opts, handler) => {
  const controller = { abort() {}, pause() {}, resume() {}, aborted: false, paused: false, reason: null };
  queueMicrotask(() => {
    const c = controller as unknown as Dispatcher.DispatchController;
    handler.onRequestStart?.(c, {});
    handler.onResponseStart?.(c, 200, {}, 'OK');
    handler.onResponseEnd?.(c, {});
  });
  return true;
};

function send(dispatch: Dispatcher.Dispatch, origin: string): Promise<void> {
  return new Promise((resolve, reject) => {
    dispatch(
      { origin, path: '/', method: 'GET' },
      { onResponseEnd: () => resolve(), onResponseError: (_c, error) => reject(error) },
    );
  });
}

describe('headwayInterceptor keys', () => {
  it('keys each dispatch by its own origin, spelled as URL#origin, however the origins alternate', async () => {
    const interceptor = headwayInterceptor();
    const dispatch = interceptor(answering);
    const origins = [
      'http://a.test',
      'HTTP://B.test:80',
      'http://a.test',
      'http://b.test',
      'http://a.test:8080',
    ];
    for (const origin of origins) await send(dispatch, origin);
    const sent = Object.fromEntries(interceptor.stats().map((s) => [s.key, s.sent]));
    expect(sent).toEqual({ 'http://a.test': 2, 'http://b.test': 2, 'http://a.test:8080': 1 });
  });
});
