/**
 * `make`'s result, made on the first call and shared by every call while it is pending or
 * once it has succeeded; a failed attempt is forgotten, so the next call makes it again.
 * For what a local stand-in builds on first use (a stand-in's server, a JWKS read) and
 * must not keep failing for the rest of the stack's life after one bad attempt.
 */
export function sharedUntilFailure<T>(make: () => Promise<T>): () => Promise<T> {
  let attempt: Promise<T> | undefined;
  return () =>
    (attempt ??= make().catch((error: unknown) => {
      attempt = undefined;
      throw error;
    }));
}
