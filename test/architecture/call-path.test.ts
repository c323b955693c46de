import { describe, expect, it } from 'vitest';
import { callPaths, endpointCallPath } from '../../scripts/call-path';

/**
 * A request's path through the modules (docs/ARCHITECTURE.md, "A request's path through
 * the modules"): followed statically from the endpoint's `handle`, a stop per function
 * entered, by file (scripts/call-path.ts). A path that keeps coming back to a file it
 * left goes back and forth across a seam.
 */
describe('call path', () => {
  it('contacts/manage returns to a file it had left at most 8 times', () => {
    // Act
    const path = endpointCallPath('contacts/manage');
    // Assess
    expect(path.stops[0]).toBe('functions/contacts-manage.ts');
    expect(path.returns, path.stops.join('\n')).toBeLessThanOrEqual(8);
  });

  it('follows a callback into its caller where the callee calls it, and counts each way back to a file already left', () => {
    // Prepare: endpoint → domain.manage → data.store, which calls the domain's callback, then its own helper
    const fixture = 'test/architecture/fixtures/call-path';
    // Act
    const path = callPaths([`${fixture}/endpoint.ts`]).get(`${fixture}/endpoint.ts`)!;
    // Assess
    expect(path.stops).toEqual([
      `${fixture}/endpoint.ts`,
      `${fixture}/domain.ts`,
      `${fixture}/data.ts`,
      `${fixture}/domain.ts`,
      `${fixture}/data.ts`,
      `${fixture}/domain.ts`,
    ]);
    expect({ files: path.files, returns: path.returns }).toEqual({ files: 3, returns: 3 });
  });
});
