/**
 * The tags every resource of a stage carries: the stack's own (infra/stack.ts) and the
 * channel access-token secrets the operator CLI creates outside the stack
 * (scripts/admin/aws.ts), so one tag filter finds a stage's resources and its spend.
 */
export const stageTags = (stage: string): Record<string, string> => ({ project: 'workspace-api', stage });
