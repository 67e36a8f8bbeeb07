import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Root, type IMapField } from 'protobufjs';
import { StatusError } from '../../api/errors';
import { decodeAccessReview } from './access-review';

/*
 * testdata/*.pb are real bodies kubectl 1.32.4 sent, captured by a throwaway node http
 * server that answered discovery (/api, /apis with group example.com v1alpha1, and an
 * APIResourceList with `persons`) and wrote each POST body to a file, for:
 *   kubectl --server http://127.0.0.1:PORT auth can-i get persons
 *   kubectl --server http://127.0.0.1:PORT auth can-i update persons.example.com --subresource=status
 *   kubectl --server http://127.0.0.1:PORT auth can-i get /healthz
 *   kubectl --server http://127.0.0.1:PORT auth can-i delete persons/ada
 */
const fixture = (name: string) => readFileSync(join(__dirname, 'testdata', name));

/** The messages as kubectl's generated code knows them, including fields the decoder skips. */
const k8s = Root.fromJSON({
  nested: {
    TypeMeta: { fields: { apiVersion: { id: 1, type: 'string' }, kind: { id: 2, type: 'string' } } },
    Unknown: {
      fields: {
        typeMeta: { id: 1, type: 'TypeMeta' },
        raw: { id: 2, type: 'bytes' },
        contentEncoding: { id: 3, type: 'string' },
        contentType: { id: 4, type: 'string' },
      },
    },
    ObjectMeta: { fields: { name: { id: 1, type: 'string' }, generateName: { id: 2, type: 'string' } } },
    ResourceAttributes: {
      fields: {
        namespace: { id: 1, type: 'string' },
        verb: { id: 2, type: 'string' },
        group: { id: 3, type: 'string' },
        version: { id: 4, type: 'string' },
        resource: { id: 5, type: 'string' },
        subresource: { id: 6, type: 'string' },
        name: { id: 7, type: 'string' },
        fieldSelector: { id: 8, type: 'Selector' },
        labelSelector: { id: 9, type: 'Selector' },
      },
    },
    Selector: { fields: { rawSelector: { id: 1, type: 'string' } } },
    NonResourceAttributes: { fields: { path: { id: 1, type: 'string' }, verb: { id: 2, type: 'string' } } },
    ExtraValue: { fields: { items: { id: 1, type: 'string', rule: 'repeated' } } },
    SubjectAccessReviewSpec: {
      fields: {
        resourceAttributes: { id: 1, type: 'ResourceAttributes' },
        nonResourceAttributes: { id: 2, type: 'NonResourceAttributes' },
        user: { id: 3, type: 'string' },
        groups: { id: 4, type: 'string', rule: 'repeated' },
        extra: { id: 5, keyType: 'string', type: 'ExtraValue' } as IMapField,
        uid: { id: 6, type: 'string' },
      },
    },
    Status: { fields: { allowed: { id: 1, type: 'bool' }, reason: { id: 2, type: 'string' } } },
    Review: {
      fields: {
        metadata: { id: 1, type: 'ObjectMeta' },
        spec: { id: 2, type: 'SubjectAccessReviewSpec' },
        status: { id: 3, type: 'Status' },
      },
    },
  },
});

function body(kind: string, review: Record<string, unknown>, apiVersion = 'authorization.k8s.io/v1'): Buffer {
  const reviewType = k8s.lookupType('Review');
  const unknownType = k8s.lookupType('Unknown');
  const raw = reviewType.encode(reviewType.fromObject(review)).finish();
  const envelope = unknownType.encode(unknownType.fromObject({ typeMeta: { apiVersion, kind }, raw })).finish();
  return Buffer.concat([Buffer.from('k8s\0', 'latin1'), envelope]);
}

function decodeError(bytes: Buffer): StatusError {
  try {
    decodeAccessReview(bytes);
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('decodeAccessReview accepted the body');
}

describe('decodeAccessReview on bodies kubectl 1.32 sent', () => {
  it('reads a resource review, namespace "default" included, empty strings left out', () => {
    expect(decodeAccessReview(fixture('can-i-get-persons.pb'))).toEqual({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: {
        resourceAttributes: {
          namespace: 'default',
          verb: 'get',
          group: 'example.com',
          resource: 'persons',
        },
      },
    });
  });

  it('reads the subresource and the name', () => {
    expect(decodeAccessReview(fixture('can-i-update-persons-status.pb')).spec.resourceAttributes).toMatchObject({
      verb: 'update',
      group: 'example.com',
      resource: 'persons',
      subresource: 'status',
    });
    expect(decodeAccessReview(fixture('can-i-delete-persons-ada.pb')).spec.resourceAttributes).toMatchObject({
      verb: 'delete',
      resource: 'persons',
      name: 'ada',
    });
  });

  it('reads a non-resource review', () => {
    expect(decodeAccessReview(fixture('can-i-get-healthz.pb')).spec).toEqual({
      nonResourceAttributes: { path: '/healthz', verb: 'get' },
    });
  });
});

describe('decodeAccessReview on bodies encoded here', () => {
  it('reads a SubjectAccessReview with user, groups and uid, skipping metadata, extra, selectors and status', () => {
    const bytes = body('SubjectAccessReview', {
      metadata: { generateName: 'x-' },
      spec: {
        resourceAttributes: { verb: 'list', resource: 'roles', labelSelector: { rawSelector: 'a=b' } },
        user: 'ada',
        groups: ['dev', 'ops'],
        extra: { scopes: { items: ['s'] } },
        uid: 'u-1',
      },
      status: { allowed: true, reason: 'r' },
    });
    expect(decodeAccessReview(bytes)).toEqual({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        resourceAttributes: { verb: 'list', resource: 'roles' },
        user: 'ada',
        groups: ['dev', 'ops'],
        uid: 'u-1',
      },
    });
  });

  it('keeps only the attributes of a SelfSubjectAccessReview, whose spec has no user', () => {
    const bytes = body('SelfSubjectAccessReview', {
      spec: { nonResourceAttributes: { path: '/x', verb: 'get' }, user: 'root' },
    });
    expect(decodeAccessReview(bytes).spec).toEqual({ nonResourceAttributes: { path: '/x', verb: 'get' } });
  });
});

describe('decodeAccessReview refuses what is not an access review with a 400 naming the fault', () => {
  const good = fixture('can-i-get-persons.pb');

  it.each([
    ['no magic prefix', Buffer.from('{"kind":"SelfSubjectAccessReview"}'), /magic prefix/],
    ['an empty body', Buffer.alloc(0), /magic prefix/],
    ['a truncated envelope', good.subarray(0, good.length - 20), /not a valid runtime.Unknown envelope/],
    ['another kind', body('Pod', { spec: {} }, 'v1'), /holds v1, kind Pod; expected authorization.k8s.io\/v1/],
    ['another version', body('SelfSubjectAccessReview', { spec: {} }, 'authorization.k8s.io/v1beta1'), /v1beta1/],
    ['an envelope without a type', Buffer.from('k8s\0', 'latin1'), /no apiVersion/],
  ])('%s', (_what, bytes, message) => {
    const err = decodeError(bytes);
    expect(err.code).toBe(400);
    expect(err.reason).toBe('BadRequest');
    expect(err.message).toMatch(message);
  });

  it('a raw review that is not a valid message', () => {
    const unknownType = k8s.lookupType('Unknown');
    const envelope = unknownType
      .encode(
        unknownType.fromObject({
          typeMeta: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview' },
          raw: Buffer.from([0x12, 0x40, 0x0a]),
        }),
      )
      .finish();
    expect(decodeError(Buffer.concat([Buffer.from('k8s\0', 'latin1'), envelope])).message).toMatch(
      /not a valid SelfSubjectAccessReview/,
    );
  });

  it('a gzip-encoded raw review', () => {
    const unknownType = k8s.lookupType('Unknown');
    const envelope = unknownType
      .encode(
        unknownType.fromObject({
          typeMeta: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview' },
          raw: Buffer.alloc(0),
          contentEncoding: 'gzip',
        }),
      )
      .finish();
    expect(decodeError(Buffer.concat([Buffer.from('k8s\0', 'latin1'), envelope])).message).toMatch(/encoding "gzip"/);
  });
});
