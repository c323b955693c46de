import { Duration, type RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { AccountRecovery, CfnUserPoolGroup, ClientAttributes, FeaturePlan, StringAttribute, UserPool, type UserPoolClient } from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { PORTAL_PERMISSIONS, PORTAL_USER_ATTRIBUTES } from '../shared/routes';
import { USER_POOL_PASSWORD_POLICY } from './user-pool-settings';

export interface PortalUserPoolProps {
  readonly removalPolicy: RemovalPolicy;
}

/**
 * The developer portal's users (docs/PORTAL.md): a Cognito user pool in which only
 * operators create users (no self sign-up), email as the username, the workspace, role
 * and API user as custom attributes, and one group per portal permission. Its app client
 * signs in with SRP or a password and may read those attributes but never write them, so
 * no user can move themselves into another workspace or role.
 */
export class PortalUserPool extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;

  constructor(scope: Construct, id: string, props: PortalUserPoolProps) {
    super(scope, id);
    const policy = USER_POOL_PASSWORD_POLICY;
    const custom = Object.fromEntries(
      Object.values(PORTAL_USER_ATTRIBUTES).map((name) => [name.replace(/^custom:/, ''), new StringAttribute({ mutable: true, maxLen: 64 })]),
    );
    this.userPool = new UserPool(this, 'Pool', {
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      passwordPolicy: {
        minLength: policy.MinimumLength,
        requireUppercase: policy.RequireUppercase,
        requireLowercase: policy.RequireLowercase,
        requireDigits: policy.RequireNumbers,
        requireSymbols: policy.RequireSymbols,
        tempPasswordValidity: Duration.days(policy.TemporaryPasswordValidityDays),
      },
      customAttributes: custom,
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      // Threat protection (compromised credentials, adaptive authentication) is in the Plus plan, which cdk-nag asks for.
      featurePlan: FeaturePlan.PLUS,
      removalPolicy: props.removalPolicy,
    });
    Validations.of(this.userPool).acknowledge({
      id: 'AwsSolutions-COG2',
      reason: 'MFA is optional for portal users for now: it is configured per user; the keys it creates are scoped, expire and are revocable.',
    });
    const readable = new ClientAttributes().withStandardAttributes({ email: true, emailVerified: true }).withCustomAttributes(...Object.keys(custom));
    this.client = this.userPool.addClient('PortalClient', {
      authFlows: { userSrp: true, userPassword: true },
      generateSecret: false,
      preventUserExistenceErrors: true,
      readAttributes: readable,
      writeAttributes: new ClientAttributes().withStandardAttributes({ email: false }),
      idTokenValidity: Duration.hours(1),
      accessTokenValidity: Duration.hours(1),
      refreshTokenValidity: Duration.days(1),
    });
    for (const permission of PORTAL_PERMISSIONS)
      new CfnUserPoolGroup(this, `Permission-${permission.replace(/[^A-Za-z0-9]/g, '')}`, {
        userPoolId: this.userPool.userPoolId,
        groupName: permission,
        description: `Portal permission ${permission}`,
      });
  }

  /**
   * What the portal page (functions/portal-page.ts) hands the browser to sign in: the
   * user-pool API endpoint of the pool's region, the pool and the app client (public:
   * the client has no secret).
   */
  browserConfig(): Record<string, string> {
    return {
      PORTAL_COGNITO_ENDPOINT: `https://cognito-idp.${Stack.of(this).region}.${Stack.of(this).urlSuffix}/`,
      PORTAL_USER_POOL_ID: this.userPool.userPoolId,
      PORTAL_CLIENT_ID: this.client.userPoolClientId,
    };
  }
}
