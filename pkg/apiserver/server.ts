import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { WebSocketServer } from 'ws';
import { internalError, requestTimeout, routeNotFound, StatusError, type StatusDetails } from '../api/errors';
import { authenticateRequest, type Authenticator } from '../auth/authenticator';
import type { Authorizer } from '../auth/authorizer';
import { WEBSOCKET_TOKEN_PREFIX } from '../auth/authn/bearer';
import type { UserInfo } from '../auth/user';
import type { BoundCondition } from '../auth/rbac';
import type { Storage } from '../storage/interface';
import type { SchemeManager } from '../registry/scheme';
import type { Logger } from '../util/log';
import type { RequestContext } from './context';
import { parseRequestInfo, type RequestInfo } from './request-info';
import { Discovery } from './discovery';
import { OpenApi } from './openapi';
import { ApiMetrics } from './metrics';
import { renderError, sendError } from './respond';
import { logAccess } from './access-log';
import { serveNonResource } from './non-resource';
import { modelFor, serveResource } from './resource-handler';
import { handleWebSocketWatch, watchRequest } from './handlers/watch';
import { DEFAULT_SETTINGS, type HandlerSettings } from './handlers/deps';
import { RouteTable, type Route } from './routes';
import type { ConsolePlugins } from './console-plugins';
import { httpServerOptions } from './http-options';
import { injectRequest, type InjectedRequest, type InjectedResponse } from './inject';
import { auditRecordOf, isAudited, type AuditedRequest, type AuthorizationOutcome } from './audit/record';
import { Admission } from './admission';
import { InProcessReads } from './in-process-read';
import type { ObjectRead, ObjectReadResult } from '../api/object-read';
import type { Audit } from './audit/setup';

/** What the apiserver is built from; `cmd/apiserver` wires it. */
export interface ApiServerDeps {
  storage: Storage;
  schemes: SchemeManager;
  authenticators: Authenticator[];
  authorizer: Authorizer;
  /**
   * For a collection watch the authoriser denies: the names the user may
   * watch, when rules with `resourceNames` allow some (docs/security.md); the watch
   * is then filtered to them.
   */
  watchableNames?: (user: UserInfo, info: RequestInfo) => 'all' | Set<string>;
  /** RBAC: the conditions under which conditional rules allow a request no rule allows outright (`[]`: none). */
  conditions?: (user: UserInfo, info: RequestInfo) => BoundCondition[];
  /** Subscribes to changes of roles and bindings (what `conditions` reads); returns the unsubscribe. */
  accessChanges?: (listener: () => void) => () => void;
  /** A 403's nearest miss, in its `details`: the closest rules and what failed, and templates that would allow. */
  denialDetails?: (user: UserInfo, info: RequestInfo) => Pick<StatusDetails, 'trace' | 'templates'>;
  /** Built-in and plugin routes served besides the models' generated APIs. */
  routes?: RouteTable;
  log: Logger;
  settings?: Partial<HandlerSettings>;
  /** Plugins' console pages, whose files are served under `/console/plugin-files/`. */
  consolePlugins?: ConsolePlugins;
}

/** A certificate chain and its private key (PEM), for a listener that serves HTTPS. */
export interface ListenerTls {
  cert: Buffer;
  key: Buffer;
}

/**
 * The HTTP(S) and WebSocket front of the apiserver. Every request goes through
 * one pipeline: request id → request info → authentication → authorisation
 * → non-resource endpoint or resource handler; every error is rendered once.
 * It may listen on several addresses (plain HTTP beside HTTPS), all served alike.
 */
export class ApiServer {
  /** One per `listen` call, in that order. */
  readonly servers: Server[] = [];
  readonly metrics = new ApiMetrics();
  private readonly settings: HandlerSettings;
  private readonly discovery: Discovery;
  private readonly openapi: OpenApi;
  /** A browser offers its token as a subprotocol (Kubernetes' form) beside a plain one: the plain one is chosen. */
  private readonly wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => [...offered].find((p) => !p.startsWith(WEBSOCKET_TOKEN_PREFIX)) ?? false,
  });
  private readonly routes: RouteTable;
  private readonly admission: Admission;
  private readonly reads: InProcessReads;
  /** One per open request; aborted on shutdown so that watches end cleanly. */
  private readonly inflight = new Set<AbortController>();
  private draining = false;
  /** Where answered requests are recorded (`--audit-level`); set once audit is set up. */
  audit: Audit | undefined;

  constructor(private readonly deps: ApiServerDeps) {
    this.settings = { ...DEFAULT_SETTINGS, ...deps.settings };
    this.routes = deps.routes ?? new RouteTable();
    this.discovery = new Discovery(deps.schemes);
    this.openapi = new OpenApi(deps.schemes);
    this.admission = new Admission(deps);
    this.reads = new InProcessReads({
      schemes: deps.schemes,
      routes: this.routes,
      admission: this.admission,
      metrics: this.metrics,
      audit: (request, outcome, log) => this.audited(request, outcome, log),
      log: deps.log,
    });
  }

  /** Starts listening on one more address, HTTPS with `tls`, else plain HTTP; resolves with the bound port. */
  listen(port: number, host: string, tls?: ListenerTls): Promise<number> {
    const handler = (req: IncomingMessage, res: ServerResponse) => void this.handle(req, res);
    const server = tls
      ? createHttpsServer({ ...httpServerOptions(this.settings), cert: tls.cert, key: tls.key }, handler)
      : createServer(httpServerOptions(this.settings), handler);
    server.on('upgrade', (req, socket, head) => void this.upgrade(req, socket, head));
    server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => rejectMalformed(err, socket));
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        this.servers.push(server);
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  }

  /** Drains: refuses new connections, ends watches cleanly, waits for in-flight requests. */
  async shutdown(): Promise<void> {
    this.draining = true;
    const closed = this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
    for (const request of this.inflight) request.abort();
    this.closeIdleConnections();
    for (const ws of this.wss.clients) ws.close(1001, 'server shutting down');
    await Promise.all(closed);
  }

  private closeIdleConnections(): void {
    for (const server of this.servers) server.closeIdleConnections();
  }

  /**
   * Answers a plain read (get, list) of code in this process as values, as `caller` (in-process-read.ts): the same
   * authorisation and store read as an HTTP GET, without a request, a response or JSON text.
   */
  readInProcess(read: ObjectRead, caller: UserInfo): Promise<ObjectReadResult> {
    return this.reads.serve(read, caller);
  }

  /** Answers a request in process, through the same pipeline as one that came over a connection (inject.ts). */
  inject(request: InjectedRequest, caller?: UserInfo): Promise<InjectedResponse> {
    return injectRequest((req, res) => this.handle(req, res), request, caller);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = process.hrtime.bigint();
    const sentBefore = req.socket.bytesWritten;
    const ctx = this.context(req, res);
    try {
      ctx.info = parseRequestInfo(req.method ?? 'GET', req.url ?? '/');
      const route = this.routes.lookup(ctx.info, req.method);
      await this.admit(ctx, route);
      if (route) await route.handler(ctx);
      else await this.route(ctx);
    } catch (err) {
      sendError(req, res, err, ctx.log);
    } finally {
      this.observe(ctx, started, sentBefore);
    }
  }

  private context(req: IncomingMessage, res: ServerResponse): RequestContext {
    const id = headerValue(req.headers['x-request-id']) ?? randomUUID();
    res.setHeader('X-Request-Id', id);
    const abort = new AbortController();
    this.inflight.add(abort);
    if (this.draining) res.setHeader('Connection', 'close');
    res.on('close', () => {
      // Only a request still being answered has anyone to tell (and an abort builds an exception with its stack).
      if (!res.writableFinished) abort.abort();
      this.inflight.delete(abort);
      // While draining, a connection that just went idle is closed now rather than at its keep-alive timeout.
      if (this.draining) setImmediate(() => this.closeIdleConnections());
    });
    return {
      id,
      req,
      res,
      url: new URL(req.url ?? '/', 'http://localhost'),
      info: {
        isResourceRequest: false,
        path: '/',
        verb: 'get',
        apiPrefix: '',
        apiGroup: '',
        apiVersion: '',
        resource: '',
        subresource: '',
        name: '',
        parts: [],
      },
      user: { name: 'anonymous', groups: ['anonymous'] },
      log: this.deps.log.child({ reqId: id }),
      signal: abort.signal,
      // Set later by some requests; present on every context from the start so that each has one shape.
      watchNames: undefined,
      conditions: undefined,
      access: undefined,
      conditionChanges: undefined,
      authorization: undefined,
    };
  }

  /** Authentication, then authorisation (admission.ts): 401 for the anonymous, 403 for a user (docs/security.md). */
  private async admit(ctx: RequestContext, route?: Route): Promise<void> {
    ctx.user = await authenticateRequest(this.deps.authenticators, ctx.req);
    await this.admission.authorize(ctx, route);
  }

  private async route(ctx: RequestContext): Promise<void> {
    if (!ctx.info.isResourceRequest) {
      const served = await serveNonResource(ctx, {
        storage: this.deps.storage,
        schemes: this.deps.schemes,
        discovery: this.discovery,
        openapi: this.openapi,
        metrics: this.metrics,
        draining: () => this.draining,
        consolePlugins: this.deps.consolePlugins,
      });
      if (!served) throw routeNotFound();
      return;
    }
    if (ctx.info.verb === 'watch') {
      const labels = { group: ctx.info.apiGroup, resource: ctx.info.resource };
      this.metrics.watchers.inc(labels);
      try {
        await serveResource(ctx, this.deps.schemes, this.settings);
      } finally {
        this.metrics.watchers.dec(labels);
      }
      return;
    }
    await serveResource(ctx, this.deps.schemes, this.settings);
  }

  /** A WebSocket upgrade is a watch on a collection or an object path (docs/api.md). */
  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const started = process.hrtime.bigint();
    const sentBefore = (socket as Socket).bytesWritten ?? 0;
    const res = fakeResponseFor(socket);
    const ctx = this.context(req, res);
    socket.on('close', () => res.emit('close'));
    // A client that resets the connection mid-upgrade must not take the process down with an unheard 'error'.
    socket.on('error', (err) => ctx.log.debug({ err }, 'websocket connection failed'));
    try {
      ctx.info = parseRequestInfo(req.method ?? 'GET', req.url ?? '/', { isWebSocket: true });
      if (!ctx.info.isResourceRequest || ctx.info.verb !== 'watch' || ctx.info.subresource) throw routeNotFound();
      await this.admit(ctx);
      const { store } = modelFor(ctx, this.deps.schemes);
      watchRequest(ctx, store, this.settings);
      this.wss.handleUpgrade(req, socket, head, (ws) => {
        // A malformed frame (unmasked, reserved bits set…) is an 'error' on the WebSocket, which ws follows by
        // closing it with 1002; unheard, it would end the process.
        ws.on('error', (err) => ctx.log.debug({ err }, 'websocket protocol error; closed'));
        void handleWebSocketWatch(ctx, store, this.settings, ws)
          .catch((err) => ctx.log.error({ err }, 'websocket watch failed'))
          .finally(() => {
            logAccess(ctx, started, sentBefore);
            this.recordAudit(ctx);
          });
      });
    } catch (err) {
      res.statusCode = err instanceof StatusError ? err.code : 500;
      writeUpgradeError(socket, err, ctx);
      logAccess(ctx, started, sentBefore);
      this.recordAudit(ctx);
    }
  }

  private observe(ctx: RequestContext, started: bigint, sentBefore: number): void {
    const { verb, apiGroup: group, resource } = ctx.info;
    const labels = { verb, group, resource };
    // Written out, not `{ ...labels, code }`: on this Node that spread builds a new hidden class per request.
    this.metrics.requests.inc({ verb, group, resource, code: String(ctx.res.statusCode) });
    if (ctx.info.verb !== 'watch')
      this.metrics.latency.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    if (ctx.res.statusCode === 503) this.metrics.storageErrors.inc();
    logAccess(ctx, started, sentBefore);
    this.recordAudit(ctx);
  }

  private recordAudit(ctx: RequestContext): void {
    const { id, user, info } = ctx;
    const request = { id, user, info, code: ctx.res.statusCode, authorization: ctx.req.headers.authorization };
    this.audited(request, ctx.authorization, () => ctx.log);
  }

  /** Hands a request's audit record to the recorder (its queue): never throws, never waits. */
  private audited(request: AuditedRequest, outcome: AuthorizationOutcome | undefined, log: () => Logger): void {
    const audit = this.audit;
    if (audit === undefined || !isAudited(audit.level, request.info.verb, request.code)) return;
    try {
      audit.recorder.record(auditRecordOf(request, outcome));
    } catch (err) {
      log().warn({ err }, 'could not build the audit record');
    }
  }
}

const headerValue = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** Before the upgrade completes, errors go out as a plain HTTP response on the socket. */
function writeUpgradeError(socket: Duplex, err: unknown, ctx?: RequestContext): void {
  const error = err instanceof StatusError ? err : internalError();
  if (!(err instanceof StatusError)) ctx?.log.error({ err }, 'websocket upgrade failed');
  const { headers, payload } = renderError(error, ctx?.req);
  const head = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${error.code} ${error.reason}\r\n${head}Connection: close\r\n\r\n${payload}`);
}

/**
 * Requests Node cannot parse (an oversized head, a malformed request line)
 * still get a Status, never a silently closed socket.
 */
function rejectMalformed(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable) return;
  const error =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? new StatusError(431, 'BadRequest', 'the request line and headers are larger than the server accepts')
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? requestTimeout()
        : new StatusError(400, 'BadRequest', 'the request could not be parsed');
  writeUpgradeError(socket, error);
}

/** Stands in for a response during an upgrade, so that the context's close handling works the same. */
function fakeResponseFor(socket: Duplex): ServerResponse {
  const res = new EventEmitter() as unknown as ServerResponse;
  Object.assign(res, { statusCode: 101, setHeader: () => res, headersSent: false, socket });
  return res;
}
