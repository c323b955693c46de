import { relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The local stack stands in for AWS from the outside: product code (shared/, functions/)
 * exports nothing that only the local stack (and tests) use. Every identifier of the
 * project is resolved with the TypeScript checker (imports, dynamic `import()`s and
 * namespace accesses alike) to the declaration it names; an export whose users outside
 * its own file are all local-stack files or tests, at least one of them the local stack,
 * is reported. The few that remain on purpose are listed below with their reason; the
 * list may only shrink.
 */
const ROOT = resolve(import.meta.dirname, '..', '..');

/** The local stack: `npm start`, its stand-ins, and the tools that run beside it. The operator CLI (scripts/admin*) works against AWS too. */
const LOCAL_STACK = /^scripts\/(local\/|start\.ts$|sam-env\.ts$|soak\.ts$)/;
const PRODUCT = /^(shared|functions)\//;
const TESTS = /^(test|bench)\//;

/** Exports kept although only the local stack and tests use them, each with its reason. */
const KEPT: Record<string, string> = {
  'shared/chat/signature.ts signPayload':
    'the other half of the signature format the service verifies: the sandbox and the tests sign as Meta does, with one definition of it',
  'shared/queue/step-queue.ts provideStepQueue': 'the step queue port: the tests and the local stack provide the durable table queue in place of SQS',
  'shared/queue/step-queue.ts StepQueue': 'the type of that port',
  'shared/queue/event-queue.ts provideEventQueue': 'the event queue port, as the step queue’s',
  'shared/queue/event-queue.ts EventQueue': 'the type of that port',
  'shared/queue/event-queue.ts fifoGroupOf': 'the FIFO group SQS gets; the table queue orders a contact’s events by it (not yet handed over through the port)',
  'shared/events/secret-box.ts SecretBox': 'the secret box port: KMS in AWS, a key file under DATA_DIR locally',
  'shared/events/secret-box.ts localSecretBox':
    'the key-file box, chosen by WEBHOOK_SECRETS_KEY_FILE inside the product (no local KMS endpoint in the route-table mode yet)',
  'shared/events/secret-box.ts localKeyFile': 'where that key lives under DATA_DIR',
  'shared/events/secret-box.ts readOrCreateLocalKey': 'reads or makes that key',
  'shared/media/media-store.ts openLocalLink':
    'the other half of the local signed media link: the local gateway opens what the product signed, with one definition of the signature',
  'shared/media/media-store.ts LOCAL_MEDIA_PATH': 'where the local gateway serves those links, named where the product builds them',
};

function localOnlyExports(): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(resolve(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
  // Every file of the project is a root, so its imports of other project files resolve
  // without loading them again; `noResolve` keeps the packages' declarations (aws-cdk-lib
  // and the AWS SDK: most of the whole program) out. A use of a project export is an
  // identifier bound to it through an import, a namespace or an `import()` of a project
  // file, which never needs a package's types to resolve.
  const program = ts.createProgram(config.fileNames, { ...config.options, noResolve: true });
  const checker = program.getTypeChecker();
  const fileOf = (node: ts.Node) => relative(ROOT, node.getSourceFile().fileName);
  const resolved = (symbol: ts.Symbol) => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);
  const sources = program.getSourceFiles().filter((file) => !file.isDeclarationFile && !relative(ROOT, file.fileName).startsWith('node_modules'));

  // Only an identifier spelled as a product export, or as a re-export of any project module,
  // can name one from another file: an import names the export it takes (`{ name }`,
  // `{ name as alias }`), a namespace or an `import()`'s module is read by export name, and
  // a re-export passes an export on under its own name or another, which is then spelled
  // so. A default import binds a name of its own, so those are always resolved. Every other
  // identifier (most of them: locals, properties) is left out, and with it the type checking
  // its resolution would need; the users found for each export are the same.
  const exportNames = new Set<string>();
  for (const source of sources) {
    const moduleSymbol = checker.getSymbolAtLocation(source);
    const product = PRODUCT.test(fileOf(source));
    for (const exported of moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [])
      if (product || exported.flags & ts.SymbolFlags.Alias) exportNames.add(exported.name).add(resolved(exported).name);
  }
  const mayNameAnExport = (node: ts.Identifier) => exportNames.has(node.text) || ts.isImportClause(node.parent) || ts.isImportEqualsDeclaration(node.parent);

  const usersOf = new Map<ts.Symbol, Set<string>>();
  for (const source of sources) {
    const user = fileOf(source);
    const visit = (node: ts.Node) => {
      if (ts.isIdentifier(node) && mayNameAnExport(node)) {
        const symbol = checker.getSymbolAtLocation(node);
        const declaration = symbol && resolved(symbol).declarations?.[0];
        if (symbol && declaration && fileOf(declaration) !== user) {
          const target = resolved(symbol);
          usersOf.set(target, (usersOf.get(target) ?? new Set()).add(user));
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }

  const found: string[] = [];
  for (const source of sources.filter((file) => PRODUCT.test(fileOf(file)))) {
    const moduleSymbol = checker.getSymbolAtLocation(source);
    for (const exported of moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []) {
      const target = resolved(exported);
      if (!target.declarations?.length || fileOf(target.declarations[0]) !== fileOf(source)) continue; // a re-export: counted where it is declared
      const users = [...(usersOf.get(target) ?? [])];
      if (users.some((user) => LOCAL_STACK.test(user)) && users.every((user) => LOCAL_STACK.test(user) || TESTS.test(user)))
        found.push(`${fileOf(source)} ${exported.name}`);
    }
  }
  return found.sort();
}

describe('product code and the local stack', () => {
  // A type checker over the whole project, synchronous: slow on a loaded 2-core machine.
  it('exports nothing only the local stack (and tests) use, except what is kept with its reason', { timeout: 600_000 }, () => {
    // Act
    const found = localOnlyExports();
    // Assess: nothing new, and nothing kept that no longer needs keeping
    expect(found.filter((name) => !(name in KEPT))).toEqual([]);
    expect(Object.keys(KEPT).filter((name) => !found.includes(name))).toEqual([]);
  });
});
