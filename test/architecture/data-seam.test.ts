import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const filesIn = (dir: string) =>
  readdirSync(resolve(ROOT, dir))
    .filter((name) => name.endsWith('.ts'))
    .map((name) => resolve(ROOT, dir, name));

const DATA_FILES = filesIn('shared/data');
const FIXTURE_FILES = filesIn('test/architecture/fixtures/data-seam');

let program: ts.Program | undefined;
/**
 * One program for both sets of files the tests below read, the data layer and its fixture,
 * so that the packages' and Node's declarations are read once; the fixture declares nothing
 * global, so neither set changes the types the other's exports have. The repository's own
 * compiler options: the types the code is written against (its `lib` has no DOM).
 */
function dataAndFixtureProgram(): ts.Program {
  if (program) return program;
  const config = ts.getParsedCommandLineOfConfigFile(resolve(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!config) throw new Error('tsconfig.json could not be read');
  program = ts.createProgram([...DATA_FILES, ...FIXTURE_FILES], { ...config.options, noEmit: true });
  return program;
}

/**
 * The exported functions of `files` that take a function: a parameter that is one (or may
 * be one), or an options object with one among its properties. Functions, constants
 * holding one, the constructors and methods of exported classes and the functions of
 * exported objects (such as `keys` or `when`) count; exported types do not.
 */
function functionsTakingFunctions(files: string[]): string[] {
  const program = dataAndFixtureProgram();
  const checker = program.getTypeChecker();
  const isCallable = (type: ts.Type): boolean => (type.isUnion() ? type.types.some(isCallable) : type.getCallSignatures().length > 0);
  const ownObject = (type: ts.Type) =>
    type.getSymbol()?.declarations?.some((declaration) => !declaration.getSourceFile().fileName.includes('node_modules')) ?? false;
  const takesFunction = (type: ts.Type, at: ts.Node): boolean => {
    // A type parameter takes what its constraint allows (a valibot schema of an item: data, whose own methods are no callback).
    if (type.flags & ts.TypeFlags.TypeParameter) {
      const constraint = checker.getBaseConstraintOfType(type);
      return constraint !== undefined && constraint !== type && takesFunction(constraint, at);
    }
    if (isCallable(type)) return true;
    if (type.isUnionOrIntersection()) return type.types.some((part) => takesFunction(part, at));
    // An options object of our own with a function among its properties (an object's own methods are no callback).
    const isMethod = (property: ts.Symbol) =>
      property.declarations?.some((declaration) => ts.isMethodDeclaration(declaration) || ts.isMethodSignature(declaration)) ?? false;
    return (
      ownObject(type) &&
      type.getProperties().some((property) => !isMethod(property) && isCallable(checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(property, at))))
    );
  };
  const found: string[] = [];
  const check = (name: string, type: ts.Type, at: ts.Node, construct = false) => {
    for (const signature of construct ? type.getConstructSignatures() : type.getCallSignatures())
      for (const parameter of signature.getParameters())
        if (takesFunction(checker.getTypeOfSymbolAtLocation(parameter, at), at)) found.push(`${name}(${parameter.getName()})`);
  };
  for (const file of files) {
    const source = program.getSourceFile(file)!;
    const module = checker.getSymbolAtLocation(source);
    if (!module) continue;
    const where = relative(ROOT, file);
    for (const exported of checker.getExportsOfModule(module)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declaration = symbol.valueDeclaration;
      if (!declaration) continue;
      const name = `${where} ${symbol.getName()}`;
      const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
      if (symbol.flags & ts.SymbolFlags.Class) {
        check(name, type, declaration, true);
        for (const member of checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))) {
          const modifiers = member.valueDeclaration ? ts.getCombinedModifierFlags(member.valueDeclaration) : 0;
          if (!(modifiers & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)))
            check(`${name}.${member.getName()}`, checker.getTypeOfSymbolAtLocation(member, declaration), declaration);
        }
      } else if (type.getCallSignatures().length > 0) check(name, type, declaration);
      else if (ownObject(type))
        for (const member of type.getProperties()) check(`${name}.${member.getName()}`, checker.getTypeOfSymbolAtLocation(member, declaration), declaration);
    }
  }
  return found;
}

/**
 * The seam between the domain and the data layer runs one way (docs/ARCHITECTURE.md,
 * "Layers"): the data layer takes values and returns outcomes, and never calls back
 * into its caller; the domain names no table key.
 */
describe('the domain/data seam', () => {
  it('no exported function of shared/data takes a function', () => {
    // Act
    const found = functionsTakingFunctions(DATA_FILES);
    // Assess
    expect(found).toEqual([]);
  });

  it('finds a function taken as a parameter, in an options object, by a method or by an exported object’s function', () => {
    // Act
    const found = functionsTakingFunctions(FIXTURE_FILES);
    // Assess
    const fixture = 'test/architecture/fixtures/data-seam/callbacks.ts';
    expect(found.sort()).toEqual(
      [`${fixture} Store.subscribe(listener)`, `${fixture} builders.lazy(load)`, `${fixture} visitEach(visit)`, `${fixture} whenReady(options)`].sort(),
    );
  });

  it('shared/domain composes no table key: no keys. and no import of shared/data/keys.ts', () => {
    // Prepare
    const files = readdirSync(resolve(ROOT, 'shared/domain')).map((name) => join('shared/domain', name));
    // Act
    const offending = files.filter((file) => {
      const text = readFileSync(resolve(ROOT, file), 'utf8');
      return /\bkeys\./.test(text.replaceAll('Object.keys(', '')) || /from '\.\.\/data\/keys'/.test(text);
    });
    // Assess
    expect(offending).toEqual([]);
  });
});
