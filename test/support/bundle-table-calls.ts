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

export function dynamoDbOperationsCalled(code: string): string[] {
  return DYNAMODB_OPERATIONS.filter((operation) => {
    const command = new RegExp(`([\\w$]+)=class extends [\\w$]+\\([\\w$]+,[\\w$]+,"${operation}",`).exec(code)?.[1];
    if (!command) return false;
    const wrapper = new RegExp(`([\\w$]+)=class extends [\\w$]+\\{(?:(?!=class )[^])*?clientCommand=new ${identifier(command)}\\(this\\.input\\)`).exec(
      code,
    )?.[1];
    return [command, wrapper]
      .filter((name): name is string => name !== undefined)
      .some((name) => [...code.matchAll(new RegExp(`new ${identifier(name)}\\(([^)]{0,10})`, 'g'))].some((call) => !call[1].startsWith('this.input')));
  });
}
