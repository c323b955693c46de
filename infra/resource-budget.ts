/**
 * The resource budget: CloudFormation takes at most 500 resources per stack, and the
 * features must fit with room to spare. Per-endpoint costs are counted in the
 * synthesized templates themselves (by construct path), so the arithmetic in
 * docs/DEPLOYMENT.md (*Resource budget*) follows the template as it grows.
 */
import { API_BASE_PATH, API_ROUTES } from '../shared/routes';
import { CLOUDFORMATION_RESOURCES_PER_STACK } from './platform-limits';
import type { SynthesizedStage, TemplateJson } from './synth-offline';

/** Our ceiling per stack: CloudFormation's 500 less room for one unplanned feature. */
export const RESOURCE_BUDGET_PER_STACK = 450;

/** A feature on the roadmap, as far as its resources can be told today. */
export interface PlannedFeature {
  readonly name: string;
  readonly endpoints: number;
  /** New path segments its routes hang under (one API Gateway resource each). */
  readonly pathSegments: number;
  /** Resources beside its endpoints, in the stage's own stack. */
  readonly other: Readonly<Record<string, number>>;
}

/**
 * Features planned but not yet in the template, counted ahead: none now (the portal's
 * functions, the media endpoints and the media bucket are built and counted in the template).
 */
export const PLANNED_FEATURES: readonly PlannedFeature[] = [];

const pathOf = (resource: TemplateJson['Resources'][string]) => String(resource.Metadata?.['aws:cdk:path'] ?? '');

/**
 * Resources one API endpoint adds, counted in the template for every route and the
 * largest taken: in the stage's stack its function, role, policy and log group, its API
 * Gateway resource, its GET, POST and mock ANY (405) methods and one invoke permission; in the monitoring stack its
 * alarms (named after its function).
 */
export function resourcesPerEndpoint({ stack, template, monitoring }: SynthesizedStage): { stage: number; monitoring: number } {
  const stackPaths = Object.values(template.Resources).map(pathOf);
  const alarmNames = Object.values(monitoring.Resources)
    .filter((resource) => resource.Type === 'AWS::CloudWatch::Alarm')
    .map((resource) => String(resource.Properties?.AlarmName));
  let stage = 0;
  let alarms = 0;
  for (const route of API_ROUTES) {
    const own = stackPaths.filter(
      (path) =>
        path.startsWith(`${stack.stackName}/${route.name}/`) || path.startsWith(`${stack.stackName}/Api/RestApi/Default${API_BASE_PATH}/${route.path}/`),
    );
    stage = Math.max(stage, own.length);
    alarms = Math.max(alarms, alarmNames.filter((name) => new RegExp(`-${route.name}[A-Z][A-Za-z0-9]*$`).test(name)).length);
  }
  return { stage, monitoring: alarms };
}

export interface BudgetLine {
  readonly what: string;
  readonly stage: number;
  readonly monitoring: number;
}

/** The budget of one stage: what its stacks hold now, each planned feature, and the totals against the ceiling. */
export function resourceBudget(synth: SynthesizedStage): { lines: BudgetLine[]; total: BudgetLine; perEndpoint: { stage: number; monitoring: number } } {
  const perEndpoint = resourcesPerEndpoint(synth);
  const lines: BudgetLine[] = [
    {
      what: `now (${API_ROUTES.length} endpoints)`,
      stage: Object.keys(synth.template.Resources).length,
      monitoring: Object.keys(synth.monitoring.Resources).length,
    },
  ];
  for (const feature of PLANNED_FEATURES) {
    const other = Object.values(feature.other).reduce((sum, count) => sum + count, 0);
    lines.push({
      what: [
        `${feature.name}: ${feature.endpoints} endpoints × ${perEndpoint.stage} + ${feature.pathSegments} path segment`,
        ...Object.entries(feature.other).map(([name, count]) => `${count} ${name}`),
      ].join(' + '),
      stage: feature.endpoints * perEndpoint.stage + feature.pathSegments + other,
      monitoring: feature.endpoints * perEndpoint.monitoring,
    });
  }
  const total = {
    what: 'with the planned features',
    stage: lines.reduce((sum, line) => sum + line.stage, 0),
    monitoring: lines.reduce((sum, line) => sum + line.monitoring, 0),
  };
  return { lines, total, perEndpoint };
}

/** Endpoints that still fit after the planned features, per stack, under our ceiling and under CloudFormation's. */
export function endpointHeadroom(budget: ReturnType<typeof resourceBudget>): { underBudget: number; underLimit: number } {
  const { total, perEndpoint } = budget;
  const fit = (ceiling: number) =>
    Math.min(Math.floor((ceiling - total.stage) / perEndpoint.stage), Math.floor((ceiling - total.monitoring) / Math.max(1, perEndpoint.monitoring)));
  return { underBudget: fit(RESOURCE_BUDGET_PER_STACK), underLimit: fit(CLOUDFORMATION_RESOURCES_PER_STACK) };
}
