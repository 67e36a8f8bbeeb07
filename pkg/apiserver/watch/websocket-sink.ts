import type { WebSocket } from 'ws';
import type { WatchSink } from './stream';

/** A watch over WebSocket: one event per text message; the socket closes when the watch ends. */
export function websocketSink(ws: WebSocket): WatchSink {
  return {
    send: (line) => { if (ws.readyState === ws.OPEN) ws.send(line); },
    backlog: () => ws.bufferedAmount,
    close: () => { if (ws.readyState === ws.OPEN) ws.close(1000, 'watch ended'); },
  };
}
