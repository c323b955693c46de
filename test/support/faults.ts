import { db } from '../../shared/data/client';

export type FaultRule = (commandName: string, input: Record<string, unknown>) => Error | undefined;

/** An error shaped as the SDK shapes a service error, so its retry strategy treats it as the real one. */
export function serviceError(name: string, status = 400): Error {
  return Object.assign(new Error(`${name}: injected fault with internal detail arn:aws:dynamodb:eu-west-1:123456789012:table/secret`), {
    name,
    $fault: status >= 500 ? 'server' : 'client',
    $metadata: { httpStatusCode: status, attempts: 1 },
  });
}

/**
 * Injects faults into the real document client against dynalite (rules see the
 * low-level command names: QueryCommand, PutItemCommand, UpdateItemCommand…); the middleware sits
 * inside the SDK's retry loop, so retries behave as against DynamoDB. Returns a
 * function that removes it, and counts the faults it raised.
 */
export function injectFaults(rule: FaultRule): { remove(): void; count(): number } {
  let raised = 0;
  const name = `fault-${Math.random()}`;
  db.middlewareStack.add(
    (next, context) => async (args) => {
      const error = rule(String(context.commandName), (args.input ?? {}) as Record<string, unknown>);
      if (error) {
        raised++;
        throw error;
      }
      return next(args);
    },
    { step: 'deserialize', name, priority: 'low' },
  );
  return { remove: () => db.middlewareStack.remove(name), count: () => raised };
}
