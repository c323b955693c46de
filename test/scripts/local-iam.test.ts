import { describe, expect, it } from 'vitest';
import { dynamodbCalls } from '../../scripts/local/aws-endpoint';
import { evaluateCall, unexercisedGrants, type PolicyStatementLocal } from '../../scripts/local/iam';
import { resolveValue, type CfnTemplate } from '../../scripts/local/template';

const TABLE = 'arn:aws:dynamodb:local:000000000000:table/workspace-api';
const tableArn = (name: string) => `arn:aws:dynamodb:local:000000000000:table/${name}`;

/** A reader's policy as infra/functions.ts grants it: read actions, plus UpdateItem on rate-limit partitions only. */
const READER: PolicyStatementLocal[] = [
  { effect: 'Allow', actions: ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query'], resources: [TABLE], conditions: {} },
  {
    effect: 'Allow',
    actions: ['dynamodb:UpdateItem'],
    resources: [TABLE],
    conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['WS#*#RL#*'] } },
  },
];

describe('the local IAM check of recorded AWS calls', () => {
  it('allows UpdateItem on a rate-limit partition and refuses it elsewhere, naming the function, action and missing statement', () => {
    // Act
    const window = evaluateCall(READER, { functionName: 'ContactsList', action: 'dynamodb:UpdateItem', resource: TABLE, leadingKeys: ['WS#ws_1#RL#usr_1'] });
    const contact = evaluateCall(READER, { functionName: 'ContactsList', action: 'dynamodb:UpdateItem', resource: TABLE, leadingKeys: ['WS#ws_1#CH#ch_1'] });
    // Assess
    expect(window.allowed).toBe(true);
    expect(contact.allowed).toBe(false);
    expect(contact.reason).toBe(
      `ContactsList may not dynamodb:UpdateItem on ${TABLE} (leading keys WS#ws_1#CH#ch_1): its role lacks the statement {"Effect":"Allow","Action":"dynamodb:UpdateItem","Resource":"${TABLE}"}`,
    );
  });

  it('refuses a call once the statement granting it is removed', () => {
    // Prepare
    const call = { functionName: 'ChannelsList', action: 'dynamodb:Query', resource: TABLE, leadingKeys: ['WS#ws_1'] };
    // Act
    const granted = evaluateCall(READER, call);
    const removed = evaluateCall(READER.slice(1), call);
    // Assess
    expect(granted.allowed).toBe(true);
    expect(removed.allowed).toBe(false);
    expect(removed.reason).toContain('ChannelsList may not dynamodb:Query');
  });

  it('lets an explicit Deny win over an Allow', () => {
    // Prepare
    const policy: PolicyStatementLocal[] = [...READER, { effect: 'Deny', actions: ['dynamodb:*'], resources: [`${TABLE}*`], conditions: {} }];
    // Act
    const verdict = evaluateCall(policy, { functionName: 'LabelsList', action: 'dynamodb:GetItem', resource: TABLE, leadingKeys: ['WS#ws_1'] });
    // Assess
    expect(verdict.allowed).toBe(false);
    expect(verdict.reason).toMatch(/explicit Deny/);
  });

  it('authorizes a transaction item by item, an index query on the index ARN, and batch calls with every leading key', () => {
    // Act
    const transaction = dynamodbCalls(
      'ContactsManage',
      'TransactWriteItems',
      {
        TransactItems: [
          { Put: { TableName: 'workspace-api', Item: { pk: { S: 'WS#a' } } } },
          { ConditionCheck: { TableName: 'workspace-api', Key: { pk: { S: 'WS#b' } } } },
        ],
      },
      tableArn,
    );
    const indexQuery = dynamodbCalls(
      'AutomationRedrive',
      'Query',
      {
        TableName: 'workspace-api',
        IndexName: 'outbox',
        KeyConditionExpression: '#s = :shard AND outboxAt <= :now',
        ExpressionAttributeNames: { '#s': 'outboxShard' },
        ExpressionAttributeValues: { ':shard': { S: 'OUTBOX#3' }, ':now': { N: '1' } },
      },
      tableArn,
    );
    const batch = dynamodbCalls(
      'LabelsList',
      'BatchGetItem',
      { RequestItems: { 'workspace-api': { Keys: [{ pk: { S: 'WS#a' } }, { pk: { S: 'WS#b' } }] } } },
      tableArn,
    );
    // Assess
    expect(transaction.map((call) => [call.action, call.leadingKeys])).toEqual([
      ['dynamodb:PutItem', ['WS#a']],
      ['dynamodb:ConditionCheckItem', ['WS#b']],
    ]);
    expect(indexQuery).toEqual([{ functionName: 'AutomationRedrive', action: 'dynamodb:Query', resource: `${TABLE}/index/outbox`, leadingKeys: ['OUTBOX#3'] }]);
    expect(evaluateCall(READER, indexQuery[0]).allowed).toBe(false);
    expect(batch[0].leadingKeys).toEqual(['WS#a', 'WS#b']);
  });

  it('lists granted actions no call exercised, leaving out the runtime’s logs and X-Ray actions', () => {
    // Prepare
    const policies = new Map([['ChannelsList', [...READER, { effect: 'Allow' as const, actions: ['logs:PutLogEvents'], resources: ['*'], conditions: {} }]]]);
    // Act
    const unexercised = unexercisedGrants(policies, [{ functionName: 'ChannelsList', action: 'dynamodb:Query', resource: TABLE, leadingKeys: ['WS#a'] }]);
    // Assess
    expect(unexercised.map((grant) => grant.action)).toEqual(['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:UpdateItem']);
  });

  it('resolves the template’s references to the local table, queue and pseudo parameters', () => {
    // Prepare
    const template: CfnTemplate = {
      Resources: {
        TableCD117FA1: { Type: 'AWS::DynamoDB::Table' },
        AutomationQueue64CD8D32: { Type: 'AWS::SQS::Queue', Metadata: { 'aws:cdk:path': 'WorkspaceApi-dev/AutomationQueue/Resource' } },
      },
    };
    const local = { region: 'local', tableName: 'workspace-api', queueUrl: (name: string) => `http://127.0.0.1:1/000000000000/${name}` };
    // Act
    const values = [
      resolveValue(template, { Ref: 'TableCD117FA1' }, local),
      resolveValue(template, { 'Fn::GetAtt': ['TableCD117FA1', 'Arn'] }, local),
      resolveValue(template, { Ref: 'AutomationQueue64CD8D32' }, local),
      resolveValue(
        template,
        { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':secretsmanager:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':secret:x/*']] },
        local,
      ),
    ];
    // Assess
    expect(values).toEqual(['workspace-api', TABLE, 'http://127.0.0.1:1/000000000000/AutomationQueue', 'arn:aws:secretsmanager:local:000000000000:secret:x/*']);
    expect(() => resolveValue(template, { Ref: 'Missing' }, local)).toThrow(/refers to Missing, which it does not define/);
  });
});
