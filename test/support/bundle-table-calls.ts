/**
 * The DynamoDB operations a built bundle's code calls, read from the minified bundle.
 * Every SDK command class keeps its operation name (`X=class extends C(…,"Query",…)`),
 * but a bundle keeps some classes no code uses (lib-dynamodb's Query and Scan commands,
 * in every bundle); an operation counts as called only where its class, or the
 * lib-dynamodb class that wraps it (`clientCommand=new X(this.input)`), is instantiated
 * by other code. Minification keeps this shape (esbuild renames, never restructures).
 */
export const DYNAMODB_OPERATIONS = [
  'GetItem',
  'BatchGetItem',
  'Query',
  'Scan',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'TransactWriteItems',
  'TransactGetItems',
  'ExecuteStatement',
  'BatchExecuteStatement',
  'ExecuteTransaction',
] as const;

const identifier = (name: string) => name.replaceAll('$', '\\$');

/** The name assigned where `code` has `<name>=class extends …` at `at` (the `=`), else undefined. */
function classNameBefore(code: string, at: number): string | undefined {
  let start = at;
  while (start > 0 && /[\w$]/.test(code[start - 1])) start--;
  return start < at ? code.slice(start, at) : undefined;
}

/** The command class of `operation`: `X=class extends C(…,…,"Operation",…`, the first there is. */
function commandClass(code: string, operation: string): string | undefined {
  // The name is found back from the `=`: a regex starting at the name would try every position of the bundle.
  const header = new RegExp(`=class extends [\\w$]+\\([\\w$]+,[\\w$]+,"${operation}",`, 'g');
  for (const match of code.matchAll(header)) {
    const name = classNameBefore(code, match.index);
    if (name) return name;
  }
  return undefined;
}

/**
 * The lib-dynamodb class that wraps `command`: the first `Y=class extends B{…}` whose body
 * (up to the next class) has `clientCommand=new <command>(this.input)`.
 */
function wrapperClass(code: string, command: string): string | undefined {
  const use = `clientCommand=new ${command}(this.input)`;
  for (let at = code.indexOf(use); at >= 0; at = code.indexOf(use, at + 1)) {
    // The class it is in begins at the last `=class ` before it (a class body never spans another class's header).
    const start = code.lastIndexOf('=class ', at);
    const header = /=class extends [\w$]+\{/y;
    header.lastIndex = start;
    const name = start >= 0 && header.test(code) && header.lastIndex <= at ? classNameBefore(code, start) : undefined;
    if (name) return name;
  }
  return undefined;
}

export function dynamoDbOperationsCalled(code: string): string[] {
  return DYNAMODB_OPERATIONS.filter((operation) => {
    const command = commandClass(code, operation);
    if (!command) return false;
    const wrapper = wrapperClass(code, command);
    return [command, wrapper]
      .filter((name): name is string => name !== undefined)
      .some((name) => [...code.matchAll(new RegExp(`new ${identifier(name)}\\(([^)]{0,10})`, 'g'))].some((call) => !call[1].startsWith('this.input')));
  });
}
