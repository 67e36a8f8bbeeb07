import { RbacAuthorizer } from '../rbac';
import { LOGGED_IN_GROUPS } from '../user';
import { randomRequest, randomWorld, USERS } from '../../../test/support/rbac-insight-world';
import { nearestMiss } from './nearest-miss';

describe('nearestMiss', () => {
  it("words a refusal exactly as the access review's denied trace does, over random worlds", () => {
    let denied = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const { world, p } = randomWorld(seed);
      const authorizer = new RbacAuthorizer(world);
      for (let q = 0; q < 30; q++) {
        const attrs = randomRequest(p);
        const user = {
          name: p.pick(USERS),
          groups: [...LOGGED_IN_GROUPS],
          ...(p.rnd() < 0.2 ? { roleLimit: ['role-1'] } : {}),
        };
        const review = authorizer.explain(user, attrs);
        if (review.allowed) continue;
        denied++;
        expect(nearestMiss(world, user, attrs)).toEqual(review.trace);
      }
    }
    expect(denied).toBeGreaterThan(200);
  });
});
