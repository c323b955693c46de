import { inTemplateMode } from '../../support/template-mode';

// test/e2e/foundation.e2e.test.ts once more, its stacks driven by the synthesized template.
await inTemplateMode('foundation', () => import('../foundation.e2e.test'));
