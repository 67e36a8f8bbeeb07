import { conflict, isNotFound, notFound, routeNotFound, StatusError } from './errors';

describe('isNotFound', () => {
  it('is true for a 404 NotFound StatusError', () => {
    expect(isNotFound(notFound({ resource: 'persons', name: 'ada' }))).toBe(true);
    expect(isNotFound(routeNotFound())).toBe(true);
  });

  it('is true for an error of the same shape, with the reason or, when none came, the code', () => {
    class Answer extends Error {
      constructor(
        readonly code: number,
        readonly reason?: string,
      ) {
        super('answer');
      }
    }
    expect(isNotFound(new Answer(404, 'NotFound'))).toBe(true);
    expect(isNotFound(new Answer(404))).toBe(true);
    expect(isNotFound(new Answer(404, 'Gone'))).toBe(false);
    expect(isNotFound(new Answer(500))).toBe(false);
  });

  it('is false for other errors and for what is not an error', () => {
    expect(isNotFound(conflict({ resource: 'persons', name: 'ada' }, 'stale'))).toBe(false);
    expect(isNotFound(new StatusError(500, 'InternalError', 'boom'))).toBe(false);
    expect(isNotFound(Object.assign(new Error('ENOENT'), { code: 'ENOENT' }))).toBe(false);
    expect(isNotFound({ code: 404, reason: 'NotFound' })).toBe(false);
    expect(isNotFound(undefined)).toBe(false);
  });
});
