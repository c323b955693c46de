import { inTemplateMode } from '../../support/template-mode';

// test/e2e/messaging.e2e.test.ts once more, its stacks driven by the synthesized template.
await inTemplateMode('messaging', () => import('../messaging.e2e.test'));
