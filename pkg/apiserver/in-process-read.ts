import { randomUUID } from 'node:crypto';
import { internalError, StatusError } from '../api/errors';
import type { ObjectRead, ObjectReadAnswer, ObjectReadResult } from '../api/object-read';
import type { UserInfo } from '../auth/user';
import type { SchemeManager } from '../registry/scheme';
import type { Logger } from '../util/log';
import type { Admission, AdmissionRequest } from './admission';
import type { AuditedRequest, AuthorizationOutcome } from './audit/record';
import type { ResourceRequest } from './resource-handler';
import { resourceFor } from './resource-handler';
import { readStored } from './handlers/get';
import { listEnvelope, readList } from './handlers/list';
import type { ApiMetrics } from './metrics';
import type { RequestInfo } from './request-info';
import type { RouteTable } from './routes';
import { readInfo, readQuery } from './object-read-info';

/** What serving reads in process takes from the apiserver: the same parts its HTTP requests go through. */
export interface InProcessReadDeps {
  schemes: SchemeManager;
  routes: RouteTable;
  admission: Admission;
  metrics: ApiMetrics;
  /** Hands an answered read's audit record to the apiserver's recorder (at its level). */
  audit: (request: AuditedRequest, outcome: AuthorizationOutcome | undefined, log: () => Logger) => void;
  log: Logger;
}

const UNSERVED: ObjectReadAnswer = { unserved: true };

/** One in-process read as authorisation and the handlers see it. */
type ReadRequest = AdmissionRequest & ResourceRequest & { id: string };

/**
 * A read as a request of its caller's, its logger made only if something logs (a refusal, a failure). A class, with
 * every field set at once: an object literal with a getter costs about a microsecond per read on this Node.
 */
class InProcessRequest implements ReadRequest {
  authorization: ReadRequest['authorization'] = undefined;
  watchNames: ReadRequest['watchNames'] = undefined;
  conditions: ReadRequest['conditions'] = undefined;
  conditionChanges: ReadRequest['conditionChanges'] = undefined;
  access: ReadRequest['access'] = undefined;
  private made?: Logger;

  constructor(
    readonly id: string,
    readonly user: UserInfo,
    readonly info: RequestInfo,
    private readonly parent: Logger,
  ) {}

  get log(): Logger {
    this.made ??= this.parent.child({ reqId: this.id, inProcess: true });
    return this.made;
  }
}

/**
 * Answers the plain reads of code running in the apiserver's process (a plugin's `ctx.client` and `req.client`) as
 * values, for a caller the apiserver itself names (never one the reader claims): the request info HTTP would parse
 * from the read's path, the same authorisation (conditional rules included), the same model checks, the same
 * store read as an HTTP GET (`readObject`, or `readStored`, `readList`), counted in the request metrics and audited
 * like one. There is no request or response object, no JSON text of its own making (a get the caller may see whole
 * passes on the text the store keeps, `objectJson`: docs/adr/0063-in-process-gets-pass-stored-json-text.md) and no
 * access-log line of its own: the request that caused the read (a plugin route's) has its line. A read whose path a
 * custom route serves, or that is malformed, is `unserved`.
 */
export class InProcessReads {
  constructor(private readonly deps: InProcessReadDeps) {}

  async serve(read: ObjectRead, caller: UserInfo): Promise<ObjectReadResult> {
    const info = readInfo(read);
    if (info === undefined) return UNSERVED;
    const query = read.verb === 'list' ? readQuery(read.options) : undefined;
    if ((read.verb === 'list' && query === undefined) || this.deps.routes.lookup(info, 'GET')) return UNSERVED;
    const started = process.hrtime.bigint();
    const request = new InProcessRequest(randomUUID(), caller, info, this.deps.log);
    let code = 200;
    try {
      await this.deps.admission.authorize(request);
      const { store } = resourceFor(request, this.deps.schemes, 'GET');
      if (query === undefined) {
        // The stored JSON text as it is where the store keeps it (no parse here, no stringify for the answer): the
        // reader parses the answer's text anyway.
        const stored = await readStored(store, info.name, request.access);
        return 'json' in stored ? { objectJson: stored.json } : stored;
      }
      return { object: listEnvelope(store, await readList(store, query, request.conditions)) };
    } catch (err) {
      const error = err instanceof StatusError ? err : this.failed(err, request);
      code = error.code;
      return { status: error.toStatus() };
    } finally {
      this.observe(request, code, started);
    }
  }

  /** A failure that is no API error: logged with its stack, answered as a 500 that leaks nothing (as over HTTP). */
  private failed(err: unknown, request: ReadRequest): StatusError {
    request.log.error({ err }, 'request failed');
    return internalError();
  }

  /** The request metrics and the audit record, as for a request that came over a connection. */
  private observe(request: ReadRequest, code: number, started: bigint): void {
    const { metrics } = this.deps;
    const { verb, apiGroup: group, resource } = request.info;
    const labels = { verb, group, resource };
    // Written out, not `{ ...labels, code }`: on this Node that spread builds a new hidden class per call.
    metrics.requests.inc({ verb, group, resource, code: String(code) });
    metrics.latency.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    if (code === 503) metrics.storageErrors.inc();
    const { id, user, info } = request;
    this.deps.audit({ id, user, info, code }, request.authorization, () => request.log);
  }
}
