import { inTemplateMode } from '../../support/template-mode';

// test/e2e/two-way.e2e.test.ts once more, its stacks driven by the synthesized template.
await inTemplateMode('two-way', () => import('../two-way.e2e.test'));
