/**
 * The developer portal's functions (docs/PORTAL.md): one per portal route (shared/routes.ts
 * PORTAL_ROUTES), each granted what its row declares beside the table: usage-plan keys
 * (API Gateway) for the key-making ones, Logs Insights over the API functions' log groups
 * for the request-log readers, the cursor key for those that page (infra/data.ts runTimeKeysFor). Their methods (infra/api.ts) sit behind the user pool's
 * Cognito authorizer.
 */
import { type CfnElement, Stack, Token, Validations } from 'aws-cdk-lib';
import type { UsagePlan } from 'aws-cdk-lib/aws-apigateway';
import { Policy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { PORTAL_ROUTES, type PortalRoute } from '../shared/routes';
import type { StageConfig } from './config';
import { WorkspaceFunction, type WorkspaceFunctionProps } from './functions';

export interface PortalFunctions {
  readonly routes: readonly { readonly route: PortalRoute; readonly handler: IFunction }[];
  readonly functions: readonly WorkspaceFunction[];
  /** Grants the key-making functions their usage-plan calls, once the plan exists. */
  grantUsagePlan(usagePlan: UsagePlan): void;
}

/** The name the usage plan is given (infra/api.ts) and the portal finds it by. */
export const usagePlanName = (config: StageConfig) => `${config.resourcePrefix}-api-keys`;

/**
 * Creates the portal's functions. `apiFunctions` are the API's endpoint functions, whose
 * log groups hold the request lines the portal reads back.
 */
export function createPortalFunctions(
  scope: Stack,
  deps: Omit<WorkspaceFunctionProps, 'spec' | 'sizing' | 'environment'>,
  apiFunctions: readonly WorkspaceFunction[],
): PortalFunctions {
  const { config } = deps;
  const logGroups = apiFunctions.map((fn) => fn.logGroup);
  const created = PORTAL_ROUTES.map((route) => {
    const environment: Record<string, string> = {
      ...(route.managesUsagePlanKeys && { USAGE_PLAN_NAME: usagePlanName(config) }),
      ...(route.readsRequestLog && { REQUEST_LOG_GROUPS: logGroups.map((group) => group.logGroupName).join(',') }),
    };
    const fn = new WorkspaceFunction(scope, route.name, { ...deps, spec: route, sizing: config.apiFunction, environment });
    if (route.readsRequestLog) {
      const role = fn.function.role!;
      role.addToPrincipalPolicy(new PolicyStatement({ actions: ['logs:StartQuery'], resources: logGroups.map((group) => group.logGroupArn) }));
      role.addToPrincipalPolicy(new PolicyStatement({ actions: ['logs:GetQueryResults'], resources: ['*'] }));
    }
    return { route, fn };
  });
  return {
    routes: created.map(({ route, fn }) => ({ route, handler: fn.function })),
    functions: created.map(({ fn }) => fn),
    grantUsagePlan(usagePlan) {
      const region = Stack.of(scope).region;
      const path = (resource: string) => `arn:${Stack.of(scope).partition}:apigateway:${region}::${resource}`;
      for (const { route, fn } of created) {
        if (!route.managesUsagePlanKeys) continue;
        // A policy of its own, not the role's default one: the function does not wait for it, so it may name the
        // plan, whose stage waits for the portal's methods and so for the function.
        const policy = new Policy(fn, 'UsagePlanKeys', {
          statements: [
            new PolicyStatement({ actions: ['apigateway:GET'], resources: [path('/usageplans')] }),
            new PolicyStatement({ actions: ['apigateway:POST'], resources: [path('/apikeys'), path(`/usageplans/${usagePlan.usagePlanId}/keys`)] }),
            new PolicyStatement({ actions: ['apigateway:DELETE'], resources: [path('/apikeys/*'), path(`/usageplans/${usagePlan.usagePlanId}/keys/*`)] }),
          ],
        });
        fn.function.role!.attachInlinePolicy(policy);
        const reason = "API Gateway key ids are made at runtime (one per API user): deleting one names it by id, under the plan's keys and /apikeys only.";
        const planId = `<${Stack.of(scope).getLogicalId(usagePlan.node.defaultChild as CfnElement)}>`;
        Validations.of(policy).acknowledge(
          { id: `AwsSolutions-IAM5[Resource::${nagPath(scope, '/apikeys/*')}]`, reason },
          { id: `AwsSolutions-IAM5[Resource::${nagPath(scope, `/usageplans/${planId}/keys/*`)}]`, reason },
        );
      }
      for (const { route, fn } of created)
        if (route.readsRequestLog)
          Validations.of(fn.function.role!).acknowledge({
            id: 'AwsSolutions-IAM5[Resource::*]',
            reason: 'logs:GetQueryResults and X-Ray support no resource-level permissions; StartQuery is granted on the API log groups only.',
          });
    },
  };
}

/** An API Gateway resource ARN as cdk-nag names it in a finding: the partition and an unpinned region as `<AWS::…>`. */
function nagPath(scope: Stack, resource: string): string {
  const region = Token.isUnresolved(scope.region) ? '<AWS::Region>' : scope.region;
  return `arn:<AWS::Partition>:apigateway:${region}::${resource}`;
}
