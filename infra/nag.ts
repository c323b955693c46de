import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';

/**
 * cdk-nag v3 runs as a CDK policy-validation plugin (not an Aspect): synthesis fails on
 * any unacknowledged AwsSolutions error. Acknowledgements live next to the constructs
 * they concern (`Validations.of(construct).acknowledge`), each with its reason, and are
 * copied into the template metadata for auditing.
 */
export function addNagChecks(app: App): void {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { verbose: true, writeSuppressionsToCloudFormation: true }));
}
