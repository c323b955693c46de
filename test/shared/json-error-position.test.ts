import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonErrorPosition } from '../../shared/http/json-error-position';

describe('jsonErrorPosition', () => {
  it.each([
    ['{"name": "x",\n "color": #FF8800"}', 24],
    ['{"name": "x",', 13],
    ['{"a":1}}', 7],
    ['{"a" 1}', 5],
    ['[1,2,]', 5],
    ['{"a":"\u0001"}', 6],
    ['{"a":"\\x"}', 7],
    ['{"a":"\\u12G4"}', 7],
    ['{"a":tru}', 8],
    ['{"a":-}', 5],
    ['{oops', 1],
    ['', 0],
  ])('finds where %j stops being JSON', (text, position) => {
    expect(jsonErrorPosition(text)).toBe(position);
  });

  it('finds nothing wrong in any JSON, and agrees with JSON.parse on what is JSON', () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        expect(jsonErrorPosition(text)).toBeUndefined();
      }),
    );
    fc.assert(
      fc.property(fc.json(), fc.nat(), fc.string({ minLength: 1, maxLength: 2 }), (text, at, insert) => {
        const mutated = text.slice(0, at % (text.length + 1)) + insert + text.slice(at % (text.length + 1));
        let valid = true;
        try {
          JSON.parse(mutated);
        } catch {
          valid = false;
        }
        expect(jsonErrorPosition(mutated) === undefined).toBe(valid);
      }),
    );
  });
});
