import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StatusError } from '../../api/errors';
import { checkSelfSubjectReview, decodeSelfSubjectRulesReview } from './self-reviews';

/*
 * testdata/whoami.pb and can-i-list.pb are the bodies kubectl 1.32 POSTed for `auth whoami` and
 * `auth can-i --list`, captured by a throwaway HTTP server that wrote each POST body to a file.
 */
const fixture = (name: string) => readFileSync(join(__dirname, 'testdata', name));

function refusal(decode: () => unknown): StatusError {
  try {
    decode();
  } catch (err) {
    if (err instanceof StatusError) return err;
    throw err;
  }
  throw new Error('the body was accepted');
}

describe('decodeSelfSubjectRulesReview', () => {
  it('reads the namespace kubectl sends', () => {
    expect(decodeSelfSubjectRulesReview(fixture('can-i-list.pb'))).toEqual({ spec: { namespace: 'default' } });
  });

  it('refuses another kind with a 400 naming both', () => {
    const error = refusal(() => decodeSelfSubjectRulesReview(fixture('can-i-get-persons.pb')));
    expect(error.code).toBe(400);
    expect(error.message).toContain('holds authorization.k8s.io/v1, kind SelfSubjectAccessReview');
    expect(error.message).toContain('expected authorization.k8s.io/v1 SelfSubjectRulesReview');
  });
});

describe('checkSelfSubjectReview', () => {
  it("accepts kubectl's whoami body", () => {
    expect(() => checkSelfSubjectReview(fixture('whoami.pb'))).not.toThrow();
  });

  it('refuses a body without the magic prefix, and another kind', () => {
    expect(refusal(() => checkSelfSubjectReview(Buffer.from('{}'))).message).toMatch(/magic prefix/);
    expect(refusal(() => checkSelfSubjectReview(fixture('can-i-list.pb'))).message).toMatch(
      /expected authentication.k8s.io\/v1 SelfSubjectReview/,
    );
  });
});
