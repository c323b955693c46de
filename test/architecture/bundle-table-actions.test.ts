import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { bundlePath } from '../../infra/bundles';
import { API_ROUTES, PORTAL_ROUTES, SUPPORT_FUNCTIONS } from '../../shared/routes';
import { dynamoDbOperationsCalled } from '../support/bundle-table-calls';

/**
 * A function's row declares the table actions its code calls (`tableActions`), and CDK
 * grants exactly those (infra/functions.ts); an API endpoint's rate-limit count adds
 * UpdateItem on rate-limit partitions only. Here the declaration is checked against the
 * built bundle (built by the global setup, as CDK builds it): an action the code calls but
 * the row lacks would be refused in AWS; one the row declares but no code calls is a
 * grant nobody uses.
 */
const FUNCTIONS = [...API_ROUTES, ...PORTAL_ROUTES, ...Object.values(SUPPORT_FUNCTIONS)];

describe('table actions in the bundles', () => {
  it.each(FUNCTIONS.map((fn) => [fn.name, fn] as const))('%s declares exactly the DynamoDB actions its bundle calls', async (name, fn) => {
    // Prepare
    const code = await readFile(bundlePath(name), 'utf8');
    const rateLimited = 'rateLimitClass' in fn;

    // Act
    const called = dynamoDbOperationsCalled(code);

    // Assess
    const declared = new Set<string>(fn.tableActions);
    if (rateLimited) declared.add('UpdateItem'); // the rate-limit count (its grant: rate-limit partitions only, unless declared)
    expect(called.sort()).toEqual([...declared].sort());
  });

  it('recognises a called operation and ignores a command class no code instantiates', () => {
    // Prepare: the shapes esbuild leaves of a raw command, its lib-dynamodb wrapper, and a call
    const classes = 'var Q=class extends e(a,b,"Query",s){};var S=class extends e(a,b,"Scan",s){};';
    const wrappers =
      'var DQ=class extends B{x;constructor(e){super(),this.clientCommand=new Q(this.input)}};var DS=class extends B{x;constructor(e){super(),this.clientCommand=new S(this.input)}};';

    // Act
    const unused = dynamoDbOperationsCalled(classes + wrappers);
    const called = dynamoDbOperationsCalled(`${classes}${wrappers}async function f(){return c.send(new DQ({TableName:t()}))}`);

    // Assess
    expect(unused).toEqual([]);
    expect(called).toEqual(['Query']);
  });
});
