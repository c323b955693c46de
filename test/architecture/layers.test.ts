import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layer rules live in eslint.config.js and docs/ARCHITECTURE.md; these fixtures prove
 * the linter refuses each kind of forbidden import (and accepts the allowed ones), so a
 * rule that stops matching fails here rather than silently.
 */
const eslint = new ESLint({ cwd: process.cwd() });

async function lintErrors(filePath: string, source: string, ruleId: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return result.messages.filter((message) => message.ruleId === ruleId).map((message) => message.message);
}

const layerErrors = (filePath: string, source: string) => lintErrors(filePath, source, 'no-restricted-imports');
const tableAccessErrors = (filePath: string, source: string) => lintErrors(filePath, source, 'no-restricted-syntax');

const RAW_GET = [
  "import { GetCommand } from '@aws-sdk/lib-dynamodb';",
  "import { db } from './client';",
  "export const x = () => db.send(new GetCommand({ TableName: 'workspace-api', Key: { pk: 'a', sk: 'b' } }));",
  '',
].join('\n');

const RAW_BATCH_WRITE = [
  "import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';",
  "import { db, tableName } from './client';",
  'export const x = () => db.send(new BatchWriteCommand({ RequestItems: { [tableName()]: [] } }));',
  '',
].join('\n');

describe('layer rules (npm run lint)', () => {
  it.each([
    ['functions/fixture.ts', "import { getChannels } from '../shared/data/channels';\nexport const x = getChannels;\n", /thin entry points/],
    ['functions/fixture.ts', "import { sendMessage } from '../shared/chat/graph-client';\nexport const x = sendMessage;\n", /thin entry points/],
    ['shared/data/fixture.ts', "import { InvalidInputError } from '../http/errors';\nexport const x = InvalidInputError;\n", /client, keys and errors/],
    ['shared/data/fixture.ts', "import { manageContact } from '../domain/contacts';\nexport const x = manageContact;\n", /client, keys and errors/],
    ['shared/data/fixture.ts', "import { LIMITS } from '../schema/params';\nexport const x = LIMITS;\n", /client, keys and errors/],
    ['shared/domain/fixture.ts', "import { statusOf } from '../http/errors';\nexport const x = statusOf;\n", /never imports shared\/http/],
    ['shared/chat/fixture.ts', "import { getChannel } from '../data/channels';\nexport const x = getChannel;\n", /chat-network adapter/],
    ['shared/http/middleware/fixture.ts', "import { countRequest } from '../../data/rate-limits';\nexport const x = countRequest;\n", /middleware stack/],
    ['shared/schema/fixture.ts', "import { logger } from '../observability/logger';\nexport const x = logger;\n", /parameter schemas only/],
    ['shared/domain/fixture.ts', "import { startStack } from '../../scripts/local/stack';\nexport const x = startStack;\n", /never imports tooling/],
  ])('refuses the import in %s: %s', async (filePath, source, why) => {
    // Prepare: a file placed in the layer, importing across a boundary

    // Act
    const errors = await layerErrors(filePath, source);

    // Assess
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(why);
  });

  it.each([
    [
      'functions/fixture.ts',
      "import { manageContact } from '../shared/domain/contacts';\nimport { phone } from '../shared/schema/params';\nexport const x = [manageContact, phone];\n",
    ],
    [
      'shared/domain/fixture.ts',
      "import { getChannel } from '../data/channels';\nimport { sendMessage } from '../chat/graph-client';\nimport { InvalidInputError } from '../errors';\nimport { logger } from '../observability/logger';\nexport const x = [getChannel, sendMessage, InvalidInputError, logger];\n",
    ],
    [
      'shared/data/fixture.ts',
      "import { db } from './client';\nimport { keys } from './keys';\nimport { ConflictError } from '../errors';\nimport { clock } from '../clock';\nexport const x = [db, keys, ConflictError, clock];\n",
    ],
  ])('accepts the allowed imports in %s', async (filePath, source) => {
    // Act
    const errors = await layerErrors(filePath, source);

    // Assess
    expect(errors).toEqual([]);
  });

  it.each([
    ['shared/data/fixture.ts', 'TableName', RAW_GET],
    ['shared/domain/fixture.ts', 'TableName', RAW_GET],
    ['functions/fixture.ts', 'TableName', RAW_GET],
    ['shared/data/fixture.ts', 'tableName()', RAW_BATCH_WRITE],
  ])('refuses a raw command naming the table in %s (%s)', async (filePath, _how, source) => {
    // Prepare: a raw lib-dynamodb command naming the table itself, outside the primitives

    // Act
    const errors = await tableAccessErrors(filePath, source);

    // Assess
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/primitives of shared\/data\/client\.ts/);
  });

  it('accepts TableName in the primitives themselves (shared/data/client.ts)', async () => {
    // Act
    const errors = await tableAccessErrors('shared/data/client.ts', RAW_GET);

    // Assess
    expect(errors).toEqual([]);
  });

  it('accepts the same call through a primitive', async () => {
    // Act
    const errors = await tableAccessErrors(
      'shared/data/fixture.ts',
      "import { getItem } from './client';\nexport const x = () => getItem({ pk: 'a', sk: 'b' });\n",
    );

    // Assess
    expect(errors).toEqual([]);
  });
});
