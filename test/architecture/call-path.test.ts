import { describe, expect, it } from 'vitest';
import { callPaths, type CallPath } from '../../scripts/call-path';
import { routeEntry } from '../../shared/routes';

/**
 * A request's path through the modules (docs/ARCHITECTURE.md, "A request's path through
 * the modules"): followed statically from the endpoint's `handle`, a stop per function
 * entered, by file (scripts/call-path.ts). A path that keeps coming back to a file it
 * left goes back and forth across a seam.
 */
const FIXTURE = 'test/architecture/fixtures/call-path';
const ENTRIES = [routeEntry('contacts/manage'), `${FIXTURE}/endpoint.ts`];

let paths: Map<string, CallPath> | undefined;
/** Both tests' paths, walked in one program (callPaths reads all its entries with one), so the packages' declarations are read once. */
const pathOf = (entry: string) => (paths ??= callPaths(ENTRIES)).get(entry)!;

describe('call path', () => {
  it('contacts/manage returns to a file it had left at most 8 times', () => {
    // Act
    const path = pathOf(routeEntry('contacts/manage'));
    // Assess
    expect(path.stops[0]).toBe('functions/contacts-manage.ts');
    expect(path.returns, path.stops.join('\n')).toBeLessThanOrEqual(8);
  });

  it('follows a callback into its caller where the callee calls it, and counts each way back to a file already left', () => {
    // Prepare: endpoint → domain.manage → data.store, which calls the domain's callback, then its own helper
    const fixture = FIXTURE;
    // Act
    const path = pathOf(`${fixture}/endpoint.ts`);
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
