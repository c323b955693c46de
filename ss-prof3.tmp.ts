import { synthStage, DOCUMENTED_STAGES } from './infra/synth-offline';
const s = synthStage(DOCUMENTED_STAGES.prod);
console.log('done', Object.keys(s.template.Resources).length);
