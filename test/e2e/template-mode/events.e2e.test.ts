import { inTemplateMode } from '../../support/template-mode';

// test/events/events.e2e.test.ts once more, its stacks driven by the synthesized template.
await inTemplateMode('events', () => import('../../events/events.e2e.test'));
