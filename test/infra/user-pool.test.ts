/**
 * The portal's user pool (infra/user-pool.ts), asserted on a stack of its own: only
 * operators create users, the password policy is the one the local stand-in enforces, the
 * app client cannot write the attributes that place a user, one group per permission,
 * and cdk-nag's AwsSolutions pack has nothing unacknowledged.
 */
import { type App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { beforeAll, describe, expect, it } from 'vitest';
import { unvalidatedApp } from '../../infra/synth-offline';
import { PortalUserPool } from '../../infra/user-pool';
import { USER_POOL_PASSWORD_POLICY } from '../../infra/user-pool-settings';
import { PORTAL_PERMISSIONS, PORTAL_USER_ATTRIBUTES } from '../../shared/routes';

let app: App;
let template: Template;

beforeAll(() => {
  app = unvalidatedApp();
  const stack = new Stack(app, 'PortalUsersTest');
  new PortalUserPool(stack, 'PortalUsers', { removalPolicy: RemovalPolicy.RETAIN });
  template = Template.fromStack(stack);
});

describe('PortalUserPool', () => {
  it('lets only operators create users, signs in by email, and holds the shared password policy', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      UsernameAttributes: ['email'],
      Policies: { PasswordPolicy: USER_POOL_PASSWORD_POLICY },
      Schema: Match.arrayWith(
        Object.values(PORTAL_USER_ATTRIBUTES).map((name) => Match.objectLike({ Name: name.replace('custom:', ''), AttributeDataType: 'String' })),
      ),
    });
  });

  it('gives the app client no write access to the attributes that place a user in a workspace and role', () => {
    const clients = template.findResources('AWS::Cognito::UserPoolClient');
    expect(Object.keys(clients)).toHaveLength(1);
    const client = Object.values(clients)[0].Properties as { WriteAttributes?: string[]; ReadAttributes: string[]; GenerateSecret: boolean };
    for (const name of Object.values(PORTAL_USER_ATTRIBUTES)) {
      expect(client.WriteAttributes ?? [], name).not.toContain(name);
      expect(client.ReadAttributes, name).toContain(name);
    }
    // A browser holds no secret: the page signs in as a public client.
    expect(client.GenerateSecret).toBe(false);
  });

  it('has one group per portal permission', () => {
    const groups = Object.values(template.findResources('AWS::Cognito::UserPoolGroup')).map((g) => g.Properties.GroupName);
    expect(groups.sort()).toEqual([...PORTAL_PERMISSIONS].sort());
  });

  it('passes the AwsSolutions pack with every finding acknowledged with a reason', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(report.violations.map((v) => `${v.severity} ${v.ruleName}`)).toEqual([]);
  });
});
