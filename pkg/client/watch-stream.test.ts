import { ApiError, ExpiredError, NetworkError } from './errors';
import type { WatchEvent } from './types';
import { WatchStream } from './watch-stream';

/** A watch over a body that delivers `chunks` as given, then ends (or fails with `failure`). */
function streamOf(chunks: string[], failure?: Error): WatchStream {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (failure) controller.error(failure);
      else controller.close();
    },
  });
  return new WatchStream(body, new AbortController(), 'persons.example.com');
}

async function drain(watch: WatchStream): Promise<WatchEvent[]> {
  const events: WatchEvent[] = [];
  for await (const event of watch) events.push(event);
  return events;
}

const line = (type: string, name: string) => `${JSON.stringify({ type, object: { metadata: { name } } })}\n`;

describe('WatchStream', () => {
  it('reassembles events split across chunks and skips blank lines', async () => {
    const text = line('ADDED', 'a') + '\n' + line('MODIFIED', 'a');
    const events = await drain(streamOf([text.slice(0, 7), text.slice(7, 40), text.slice(40)]));
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED a', 'MODIFIED a']);
  });

  it('reads a last event that lacks its newline', async () => {
    const events = await drain(streamOf([line('ADDED', 'a') + line('DELETED', 'a').trim()]));
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
  });

  it("says why fetch ended a watch that carried nothing for 5 minutes (its body timeout: 'terminated')", async () => {
    const silence = new TypeError('terminated', {
      cause: Object.assign(new Error('Body Timeout Error'), { code: 'UND_ERR_BODY_TIMEOUT' }),
    });
    await expect(drain(streamOf([], silence))).rejects.toMatchObject({
      name: 'NetworkError',
      message:
        'watch persons.example.com broke off: terminated (nothing came for 5 minutes, which fetch gives up on: ask for bookmarks, allowWatchBookmarks)',
    });
    await expect(drain(streamOf([], new TypeError('other side closed')))).rejects.toMatchObject({
      message: 'watch persons.example.com broke off: other side closed',
    });
  });

  it('skips event types it does not know', async () => {
    const events = await drain(streamOf([line('SOMETHING_NEW', 'a'), line('ADDED', 'b')]));
    expect(events.map((e) => e.object.metadata.name)).toEqual(['b']);
  });

  it('throws the Status of an ERROR event: ExpiredError for 410, ApiError otherwise', async () => {
    const error = (code: number, reason: string) =>
      `${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code, reason, message: reason } })}\n`;
    const expired = await drain(streamOf([line('ADDED', 'a'), error(410, 'Expired')])).catch((e: unknown) => e);
    expect(expired).toBeInstanceOf(ExpiredError);
    const internal = await drain(streamOf([error(500, 'InternalError')])).catch((e: unknown) => e);
    expect(internal).toBeInstanceOf(ApiError);
    expect(internal).not.toBeInstanceOf(ExpiredError);
    expect((internal as ApiError).code).toBe(500);
  });

  it('throws a NetworkError when the stream breaks off or carries an unreadable line', async () => {
    const broken = await drain(streamOf([line('ADDED', 'a')], new Error('socket hang up'))).catch((e: unknown) => e);
    expect(broken).toBeInstanceOf(NetworkError);
    const garbled = await drain(streamOf(['{"type": "ADDED", "obj\n'])).catch((e: unknown) => e);
    expect(garbled).toBeInstanceOf(NetworkError);
  });

  it('can be iterated only once', async () => {
    const watch = streamOf([line('ADDED', 'a')]);
    await drain(watch);
    await expect(drain(watch)).rejects.toThrow('iterated once');
  });
});
