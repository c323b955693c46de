import { inTemplateMode } from '../../support/template-mode';

// test/e2e/automations.e2e.test.ts once more, its stacks driven by the synthesized template.
await inTemplateMode('automations', () => import('../automations.e2e.test'));
