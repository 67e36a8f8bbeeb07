import { freshPhase } from './start-wait';

describe('freshPhase', () => {
  const since = Date.parse('2026-11-25T04:00:00.000Z');
  const plugin = (phase: string, lastTransitionTime?: string) => ({
    status: { phase, message: '', conditions: [{ type: 'Other' }, { type: 'Ready', lastTransitionTime }] },
  });

  it("answers the phase this start wrote, and none while the status is an earlier start's", () => {
    expect(freshPhase(plugin('STARTED', '2026-11-25T04:00:00.120Z'), since)).toEqual({
      phase: 'STARTED',
      message: '',
    });
    expect(freshPhase(plugin('STARTED', '2026-11-25T03:59:59.900Z'), since)).toEqual({});
  });

  it('answers no phase for an object without a Ready condition, or none at all', () => {
    expect(freshPhase(plugin('STARTING'), since)).toEqual({});
    expect(freshPhase({}, since)).toEqual({});
    expect(freshPhase(undefined, since)).toEqual({});
  });
});
