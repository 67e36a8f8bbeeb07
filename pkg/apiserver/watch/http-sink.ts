import type { ServerResponse } from 'node:http';
import type { WatchSink } from './stream';

/**
 * A watch over HTTP: 200 with headers flushed at once, then one JSON object
 * per line in a chunked body.
 *
 * Events go straight to the connection as chunks framed once per event
 * (`WireEvent.chunk`) rather than through `res.write`, which frames every
 * write again and costs several socket writes each: with a thousand watchers
 * this path runs a hundred thousand times a second. A batch of events is one
 * system call (the socket is corked around it). `res.end()` still writes the
 * last chunk, so the connection stays usable for keep-alive. Until Node has
 * given the response its connection (a request pipelined behind another),
 * events go through `res.write`, which queues them in order.
 */
export function httpSink(res: ServerResponse): WatchSink {
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache',
    'Transfer-Encoding': 'chunked',
  });
  res.flushHeaders();
  return {
    send: (events) => {
      const socket = res.socket;
      if (socket === null) {
        for (const event of events) res.write(event.line);
      } else if (events.length === 1) {
        socket.write(events[0].chunk);
      } else {
        socket.cork();
        for (const event of events) socket.write(event.chunk);
        socket.uncork();
      }
    },
    backlog: () => res.writableLength,
    close: () => {
      res.end();
    },
  };
}
