/**
 * Each function's IAM policy as the synthesized template grants it, resolved against
 * the local resources, and the check of one AWS call against it: the template-driven
 * mode refuses what the role would refuse (AccessDeniedException, as AWS answers) and
 * records every call, so the end-to-end run proves each role grants what its
 * function does, and lists what it grants but nothing exercised.
 */
import { type CfnJson, type CfnTemplate, type LocalResources, resolveValue, resourceName } from './template';

export interface PolicyStatementLocal {
  effect: 'Allow' | 'Deny';
  actions: string[];
  resources: string[];
  /** operator → condition key → values, e.g. ForAllValues:StringLike → dynamodb:LeadingKeys → ['WS#*#RL#*']. */
  conditions: Record<string, Record<string, string[]>>;
}

/** One AWS call a function made: the IAM action, the resource it touches, and its leading (partition) keys. */
export interface AwsCall {
  functionName: string;
  action: string;
  resource: string;
  leadingKeys?: string[];
}

export interface CallVerdict extends AwsCall {
  allowed: boolean;
  /** Why a refused call was refused, with the statement that would allow it. */
  reason?: string;
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

/** Every statement of every policy attached to each function's role, by function name. */
export function functionPolicies(template: CfnTemplate, local: LocalResources): Map<string, PolicyStatementLocal[]> {
  const byRole = new Map<string, PolicyStatementLocal[]>();
  const add = (roleId: string, document: { Statement?: unknown }) => {
    const statements = byRole.get(roleId) ?? [];
    for (const raw of list(document.Statement) as Record<string, CfnJson>[]) {
      const conditions: PolicyStatementLocal['conditions'] = {};
      for (const [operator, keys] of Object.entries((raw.Condition ?? {}) as Record<string, Record<string, unknown>>)) {
        conditions[operator] = Object.fromEntries(
          Object.entries(keys).map(([key, values]) => [key, list(values).map((value) => resolveValue(template, value, local))]),
        );
      }
      statements.push({
        effect: raw.Effect === 'Deny' ? 'Deny' : 'Allow',
        actions: list(raw.Action).map(String),
        resources: list(raw.Resource).map((resource) => resolveValue(template, resource, local)),
        conditions,
      });
    }
    byRole.set(roleId, statements);
  };
  for (const [roleId, resource] of Object.entries(template.Resources)) {
    if (resource.Type !== 'AWS::IAM::Role') continue;
    for (const policy of list(resource.Properties?.Policies) as { PolicyDocument: { Statement?: unknown } }[]) add(roleId, policy.PolicyDocument);
  }
  for (const resource of Object.values(template.Resources)) {
    if (resource.Type !== 'AWS::IAM::Policy') continue;
    for (const role of list(resource.Properties?.Roles) as { Ref?: string }[])
      if (role.Ref) add(role.Ref, resource.Properties!.PolicyDocument as { Statement?: unknown });
  }
  const byFunction = new Map<string, PolicyStatementLocal[]>();
  for (const [id, resource] of Object.entries(template.Resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    const role = resource.Properties?.Role as { 'Fn::GetAtt'?: [string, string] } | undefined;
    const roleId = role?.['Fn::GetAtt']?.[0];
    byFunction.set(resourceName(template, id), roleId ? (byRole.get(roleId) ?? []) : []);
  }
  return byFunction;
}

/** IAM's wildcard match: `*` any run of characters, `?` one character; case-sensitive, as for ARNs. */
export function wildcardMatch(pattern: string, value: string, ignoreCase = false): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, ignoreCase ? 'i' : '').test(value);
}

/** Whether a statement's conditions hold for the call (the condition keys the functions' policies use). */
function conditionsHold(statement: PolicyStatementLocal, call: AwsCall): boolean {
  for (const [operator, keys] of Object.entries(statement.conditions)) {
    for (const [key, patterns] of Object.entries(keys)) {
      if (key !== 'dynamodb:LeadingKeys') return false; // a condition this check cannot evaluate never grants
      const values = call.leadingKeys ?? [];
      const matches = (value: string) => patterns.some((pattern) => (operator.endsWith('StringLike') ? wildcardMatch(pattern, value) : pattern === value));
      if (operator.startsWith('ForAllValues:')) {
        if (!values.every(matches)) return false;
      } else if (operator.startsWith('ForAnyValue:')) {
        if (!values.some(matches)) return false;
      } else if (values.length !== 1 || !matches(values[0])) {
        return false;
      }
    }
  }
  return true;
}

const statementCovers = (statement: PolicyStatementLocal, call: AwsCall) =>
  statement.actions.some((action) => wildcardMatch(action, call.action, true)) &&
  statement.resources.some((resource) => wildcardMatch(resource, call.resource));

/** IAM's evaluation for one call: an explicit Deny wins, then an Allow whose action, resource and conditions match. */
export function evaluateCall(statements: PolicyStatementLocal[], call: AwsCall): CallVerdict {
  if (statements.some((statement) => statement.effect === 'Deny' && statementCovers(statement, call) && conditionsHold(statement, call))) {
    return { ...call, allowed: false, reason: `an explicit Deny statement covers ${call.action} on ${call.resource}` };
  }
  if (statements.some((statement) => statement.effect === 'Allow' && statementCovers(statement, call) && conditionsHold(statement, call)))
    return { ...call, allowed: true };
  const keys = call.leadingKeys?.length ? ` (leading keys ${call.leadingKeys.join(', ')})` : '';
  const missing = JSON.stringify({ Effect: 'Allow', Action: call.action, Resource: call.resource });
  return { ...call, allowed: false, reason: `${call.functionName} may not ${call.action} on ${call.resource}${keys}: its role lacks the statement ${missing}` };
}

/** Granted actions (per function, with their resources) that no recorded call exercised; CloudWatch Logs and X-Ray are the runtime's, not the code's. */
export function unexercisedGrants(
  policies: Map<string, PolicyStatementLocal[]>,
  calls: AwsCall[],
): { functionName: string; action: string; resources: string[] }[] {
  const unexercised: { functionName: string; action: string; resources: string[] }[] = [];
  for (const [functionName, statements] of policies) {
    const made = calls.filter((call) => call.functionName === functionName);
    for (const statement of statements) {
      if (statement.effect !== 'Allow') continue;
      for (const action of statement.actions) {
        if (/^(logs|xray):/.test(action)) continue;
        const exercised = made.some(
          (call) =>
            wildcardMatch(action, call.action, true) &&
            statement.resources.some((resource) => wildcardMatch(resource, call.resource)) &&
            conditionsHold(statement, call),
        );
        if (!exercised) unexercised.push({ functionName, action, resources: statement.resources });
      }
    }
  }
  return unexercised;
}
