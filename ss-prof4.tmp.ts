import { App, RemovalPolicy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { PortalUserPool } from './infra/user-pool';
import { synthStage, DOCUMENTED_STAGES, validationFindings } from './infra/synth-offline';
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
function pool(validate: boolean) { const app = new App({ builtinCloudFormationValidation: validate }); const stack = new Stack(app, 'P'); new PortalUserPool(stack, 'PortalUsers', { removalPolicy: RemovalPolicy.RETAIN }); Template.fromStack(stack); }
let t = cpu(); const lap = (w: string) => { const n = cpu(); console.log(w, Math.round(n - t)); t = n; };
pool(false); lap('pool warm (no validation)');
pool(false); lap('pool no validation');
pool(true); lap('pool validation');
pool(true); lap('pool validation again');
const dev = synthStage(DOCUMENTED_STAGES.dev); lap('dev synth no validation');
const dev2 = synthStage(DOCUMENTED_STAGES.dev); lap('dev synth no validation again');
const prod = synthStage(DOCUMENTED_STAGES.prod); lap('prod synth no validation');
console.log(validationFindings([dev, prod]).length); lap('validate dev+prod');
console.log(validationFindings([dev, prod]).length); lap('validate dev+prod again');
