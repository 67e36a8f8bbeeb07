import { afterEach, describe, expect, it, vi } from 'vitest';
import { keepPermissionsFresh, permissionsReader, PLUGINS_CHANGED, POLL_MS } from './refresh';

// A role change shows without a re-login also for users who may not watch roles: a conditional poll while the
// tab is visible, which the server answers 304 without a body until something changed.

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('permissionsReader', () => {
  it('sends the last ETag back, and reads a 304 as unchanged', async () => {
    const sent: (string | undefined)[] = [];
    const answers = [
      new Response('{"roles":[],"uiPermissions":["a"]}', { headers: { ETag: '"one"' } }),
      new Response(null, { status: 304 }),
      new Response('{"roles":[],"uiPermissions":["a","b"]}', { headers: { ETag: '"two"' } }),
    ];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        sent.push((init.headers as Record<string, string>)['If-None-Match']);
        return answers.shift() as Response;
      }),
    );
    const read = permissionsReader();
    expect((await read())?.uiPermissions).toEqual(['a']);
    expect(await read()).toBeUndefined();
    expect((await read())?.uiPermissions).toEqual(['a', 'b']);
    expect(sent).toEqual([undefined, '"one"', '"one"']);
  });
});

describe('keepPermissionsFresh', () => {
  it('polls every POLL_MS while the tab is visible when the user may not watch roles, and not while hidden', async () => {
    vi.useFakeTimers();
    // Every access review says no: the user may not watch bindings or roles.
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"status":{"allowed":false}}', { status: 201 })),
    );
    let visibility = 'visible';
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
    const refresh = vi.fn();
    const stop = keepPermissionsFresh(refresh);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(refresh).toHaveBeenCalledTimes(2);
    visibility = 'hidden';
    await vi.advanceTimersByTimeAsync(POLL_MS * 5);
    expect(refresh).toHaveBeenCalledTimes(2);
    visibility = 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
    expect(refresh).toHaveBeenCalledTimes(3);
    stop();
    await vi.advanceTimersByTimeAsync(POLL_MS * 2);
    expect(refresh).toHaveBeenCalledTimes(3);
  });

  it('tells events (focus, a plugin change) from the poll, so plugin pages are read again on events only', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"status":{"allowed":false}}', { status: 201 })),
    );
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
    const refresh = vi.fn();
    const stop = keepPermissionsFresh(refresh);
    await vi.advanceTimersByTimeAsync(POLL_MS);
    window.dispatchEvent(new Event('focus'));
    window.dispatchEvent(new Event(PLUGINS_CHANGED));
    expect(refresh.mock.calls).toEqual([['poll'], ['event'], ['event']]);
    stop();
    window.dispatchEvent(new Event(PLUGINS_CHANGED));
    expect(refresh).toHaveBeenCalledTimes(3);
  });
});
