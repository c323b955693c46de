import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { routeEntry } from '../shared/routes';

/**
 * How a request moves through the modules: its call path, followed statically with the
 * type checker from the endpoint function's `handle`, and how often it returns to a file
 * it had left (docs/ARCHITECTURE.md, "A request's path through the modules").
 *
 * - Calls are followed in source order (arguments before the call); a function passed to
 *   one of ours runs where that one calls it (its parameter), or after it; one passed to a
 *   package's function (Array.map) runs in place. Every branch is followed: the path is
 *   what any request of the endpoint may run.
 * - A **stop** is the first call of a function of the repository's own code (not a
 *   package's); the function is followed from there. A later call of a function already entered is no new
 *   stop (a loop, a helper called twice): the path is the request's call graph, walked
 *   depth first. Consecutive stops in one file are one stop.
 * - Not followed: what every layer uses like a library — the leaves (shared/errors,
 *   shared/phone, shared/cache, shared/clock.ts, shared/ids.ts, shared/identity.ts,
 *   shared/map-limit.ts, shared/config.ts, shared/routes.ts), logs and metrics
 *   (shared/observability), and the data layer's own primitives (client.ts, batch.ts,
 *   expressions.ts, keys.ts: every data module composes its table calls with them).
 * - A **return** is a stop in a file the path had already left.
 *
 * `npx tsx scripts/call-path.ts contacts/manage chat/templates/send` prints the counts
 * (`--stops` also the stops).
 */

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const LIBRARY_LIKE = [
  /^shared\/(errors|phone|cache|observability)\//,
  /^shared\/(clock|ids|identity|map-limit|config|routes)\.ts$/,
  /^shared\/data\/(client|batch|expressions|keys)\.ts$/,
];

export interface CallPath {
  /** The file of each stop, in order. */
  stops: string[];
  /** Distinct files among the stops. */
  files: number;
  /** Stops in a file the path had already left. */
  returns: number;
}

type FunctionNode = ts.SignatureDeclaration & { body?: ts.Node };

const isFunctionNode = (node: ts.Node): node is FunctionNode =>
  ts.isFunctionDeclaration(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isArrowFunction(node) ||
  ts.isFunctionExpression(node) ||
  ts.isConstructorDeclaration(node);

/** The entry files and everything they import, with tsconfig.json's options. */
function programOf(entries: string[]): ts.Program {
  const config = ts.readConfigFile(resolve(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  return ts.createProgram(
    entries.map((entry) => resolve(ROOT, entry)),
    options,
  );
}

/** The function an expression names (`f`, `module.f`, `keys.f`), through imports and `const f = () => …`. */
function namedFunction(checker: ts.TypeChecker, expression: ts.Expression): FunctionNode | undefined {
  let symbol = checker.getSymbolAtLocation(ts.isPropertyAccessExpression(expression) ? expression.name : expression);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  let declaration: ts.Node | undefined = symbol?.valueDeclaration;
  if (declaration && (ts.isVariableDeclaration(declaration) || ts.isPropertyAssignment(declaration)) && declaration.initializer)
    declaration = declaration.initializer;
  return declaration && isFunctionNode(declaration) ? declaration : undefined;
}

/** The function a call runs: its signature's declaration, else the function its callee names. */
function calledFunction(checker: ts.TypeChecker, call: ts.CallExpression | ts.NewExpression): FunctionNode | undefined {
  const declaration = checker.getResolvedSignature(call)?.declaration;
  return declaration && isFunctionNode(declaration) ? declaration : namedFunction(checker, call.expression);
}

/** The `handle` of an endpoint function file (`apiEndpoint({ …, handle })`). */
function handleOf(file: ts.SourceFile): FunctionNode | undefined {
  let found: FunctionNode | undefined;
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && node.name.getText(file) === 'handle' && isFunctionNode(node.initializer)) found = node.initializer;
    else if (!found) ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/**
 * The call paths from the `handle` of each entry file (an endpoint function, `functions/…`,
 * or any file whose object literal has a `handle`), by entry.
 */
export function callPaths(entries: string[]): Map<string, CallPath> {
  const program = programOf(entries);
  return new Map(entries.map((entry) => [entry, callPathIn(program, entry)]));
}

function callPathIn(program: ts.Program, entry: string): CallPath {
  const file = program.getSourceFile(resolve(ROOT, entry));
  const handle = file && handleOf(file);
  if (!handle?.body) throw new Error(`No handle in ${entry}`);
  const walk = new CallWalk(program.getTypeChecker());
  walk.enter(handle);
  const seen = new Set<string>();
  let returns = 0;
  for (const stop of walk.stops) {
    if (seen.has(stop)) returns++;
    seen.add(stop);
  }
  return { stops: walk.stops, files: seen.size, returns };
}

const fileOf = (node: ts.Node) => relative(ROOT, node.getSourceFile().fileName);

/** Whether a function is this repository's code (not a package's, not a declaration, not library-like). */
function isOurs(fn: FunctionNode): boolean {
  const name = fileOf(fn);
  return !fn.getSourceFile().isDeclarationFile && !name.startsWith('node_modules/') && !LIBRARY_LIKE.some((library) => library.test(name));
}

/** One walk of the calls from a handle: the files it enters, in order (`stops`). */
class CallWalk {
  readonly stops: string[] = [];
  private readonly followed = new Set<ts.Node>();
  /** A parameter of a function entered → the function passed for it (a callback). */
  private readonly passedFor = new Map<ts.Symbol, FunctionNode>();

  constructor(private readonly checker: ts.TypeChecker) {}

  enter(fn: FunctionNode): void {
    this.followed.add(fn);
    if (this.stops.at(-1) !== fileOf(fn)) this.stops.push(fileOf(fn));
    if (fn.body) this.visit(fn.body);
  }

  private visit(node: ts.Node): void {
    // A function defined here runs when it is called (or, passed as an argument, when the callee calls it).
    if (isFunctionNode(node)) return;
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) this.visitCall(node);
    else ts.forEachChild(node, (child) => this.visit(child));
  }

  private visitCall(call: ts.CallExpression | ts.NewExpression): void {
    this.visit(call.expression);
    const passed = (call.arguments ?? []).map((argument) => {
      const fn = this.passedFunction(argument);
      if (!fn) this.visit(argument);
      return fn;
    });
    const calleeSymbol = this.checker.getSymbolAtLocation(call.expression);
    const called = (calleeSymbol && this.passedFor.get(calleeSymbol)) ?? calledFunction(this.checker, call);
    const enters = called !== undefined && isOurs(called) && !this.followed.has(called);
    if (enters) {
      // Our callee runs the callbacks it is given where it calls them.
      called.parameters.forEach((parameter, i) => {
        const fn = passed[i];
        const symbol = this.checker.getSymbolAtLocation(parameter.name);
        if (fn && symbol) this.passedFor.set(symbol, fn);
      });
      this.enter(called);
    }
    for (const fn of passed) if (fn && !this.followed.has(fn)) this.runPassed(fn, enters);
  }

  /** A function passed as an argument: given to a package (Array.map, mapLimit…), part of this code, run in place; given to our callee and not called there, run after it. */
  private runPassed(fn: FunctionNode, calleeEntered: boolean): void {
    if (!calleeEntered && isFunctionNode(fn) && (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn))) {
      this.followed.add(fn);
      if (fn.body) this.visit(fn.body);
    } else if (isOurs(fn)) this.enter(fn);
  }

  /** The function an argument passes: written there, one of ours by name, or a callback this function was itself passed. */
  private passedFunction(argument: ts.Expression): FunctionNode | undefined {
    if (isFunctionNode(argument)) return argument;
    if (!ts.isIdentifier(argument) && !ts.isPropertyAccessExpression(argument)) return undefined;
    const symbol = this.checker.getSymbolAtLocation(argument);
    return (symbol && this.passedFor.get(symbol)) ?? namedFunction(this.checker, argument);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const routePaths = args.filter((arg) => !arg.startsWith('--'));
  const paths = callPaths(routePaths.map(routeEntry));
  for (const routePath of routePaths) {
    const { stops, files, returns } = paths.get(routeEntry(routePath))!;
    console.log(`${routePath}: ${stops.length} stops in ${files} files, ${returns} returns to a file it had left`);
    if (args.includes('--stops')) stops.forEach((stop, i) => console.log(`  ${String(i + 1).padStart(2)}. ${stop}`));
  }
}
