import { Root } from 'protobufjs';
import type { RequestContext } from './context';
import { sendJson } from './respond';
import { SVC_VERSION } from './version';

/**
 * The media type of gnostic's OpenAPI v2 protobuf as Kubernetes answers it. kubectl asks for
 * `…spec.v2@v1.0+protobuf`, but Go's media type parser refuses the `@` in an answer's Content-Type.
 */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/*
 * gnostic's openapi_v2.Document and Info, numbered as in its OpenAPIv2.proto (proto3); only the fields sent here:
 * the rest (paths, definitions, …) are absent, which protobuf reads as empty.
 */
const documentType = Root.fromJSON({
  nested: {
    Info: { fields: { title: { id: 1, type: 'string' }, version: { id: 2, type: 'string' } } },
    Document: { fields: { swagger: { id: 1, type: 'string' }, info: { id: 2, type: 'Info' } } },
  },
}).lookupType('Document');

const info = () => ({ title: 'svc', version: SVC_VERSION });

/** The document as protobuf: made once, it never changes while the process runs. */
let protobufDocument: Buffer | undefined;

/**
 * GET /openapi/v2: a Swagger 2.0 document that defines no types, as protobuf when the client asks for it (kubectl
 * does) and JSON otherwise. The types are in the OpenAPI v3 documents, whose `fieldValidation` parameter tells
 * kubectl to leave validation to the server; kubectl reads this one only for a kind the server does not serve.
 * Finding no definition there, it checks nothing and sends the object, and the answer names the real cause (no
 * such kind) instead of "failed to download openapi".
 */
export function serveOpenApiV2(ctx: RequestContext): void {
  if (!/protobuf/i.test(ctx.req.headers.accept ?? '')) {
    sendJson(ctx.res, 200, { swagger: '2.0', info: info(), paths: {}, definitions: {} });
    return;
  }
  protobufDocument ??= Buffer.from(
    documentType.encode(documentType.fromObject({ swagger: '2.0', info: info() })).finish(),
  );
  ctx.res.writeHead(200, { 'Content-Type': OPENAPI_V2_PROTOBUF, 'Content-Length': String(protobufDocument.length) });
  ctx.res.end(ctx.req.method === 'HEAD' ? undefined : protobufDocument);
}
