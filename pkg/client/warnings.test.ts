import { warningTexts } from './warnings';

describe('warningTexts', () => {
  it('unquotes a Kubernetes warning', () => {
    expect(warningTexts('299 - "unknown field \\"spec.nmae\\""')).toEqual(['unknown field "spec.nmae"']);
  });

  it('splits several warnings joined into one header, commas inside the texts kept', () => {
    expect(warningTexts('299 - "unknown field \\"spec.a, b\\"", 299 - "and 3 more unknown fields"')).toEqual([
      'unknown field "spec.a, b"',
      'and 3 more unknown fields',
    ]);
  });

  it('reads UTF-8 text sent as bytes', () => {
    const bytes = Buffer.from('unknown field "spec.näme"', 'utf8').toString('latin1');
    expect(warningTexts(`299 - "${bytes.replace(/"/g, '\\"')}"`)).toEqual(['unknown field "spec.näme"']);
  });

  it('answers a value in another form whole, and nothing for no header', () => {
    expect(warningTexts('something odd')).toEqual(['something odd']);
    expect(warningTexts(null)).toEqual([]);
  });
});
