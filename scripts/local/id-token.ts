import type { JwtPayload } from 'aws-jwt-verify/jwt-model';
import { sharedUntilFailure } from './shared-until-failure';

/**
 * What the local gateway does in place of API Gateway's Cognito user-pool authorizer:
 * verifies the user pool's ID token (RS256 signature against the pool's JWKS, `iss` the
 * pool, `aud` its app client, `exp` not passed, `token_use` `id`) and hands on its claims
 * as API Gateway does, every value a string. aws-jwt-verify fetches JWKS over https only,
 * so the stand-in's JWKS (plain http on loopback) is fetched here and given to it, on the
 * first token to check: the stand-in is built on its first request (lazy-user-pool.ts),
 * and a stack whose portal nobody signs in to need not build it.
 */

export interface IdTokenVerifier {
  /** The token's claims as API Gateway passes them (`requestContext.authorizer.claims`), or undefined when it is not valid. */
  claims(token: string): Promise<Record<string, string> | undefined>;
}

export async function idTokenVerifier(pool: { issuer: string; clientId: string }): Promise<IdTokenVerifier> {
  // A JWKS that could not be read fails this check (the gateway answers 500) and is read again by the next.
  const verifier = sharedUntilFailure(() => verifierOf(pool));
  return {
    async claims(token) {
      const { verify } = await verifier();
      try {
        return asGatewayClaims(await verify(token));
      } catch {
        return undefined;
      }
    },
  };
}

async function verifierOf(pool: { issuer: string; clientId: string }): Promise<{ verify(token: string): Promise<JwtPayload> }> {
  const { JwtVerifier } = await import('aws-jwt-verify');
  const jwksUri = `${pool.issuer}/.well-known/jwks.json`;
  const verifier = JwtVerifier.create({
    issuer: pool.issuer,
    audience: pool.clientId,
    jwksUri,
    customJwtCheck: ({ payload }) => {
      if (payload.token_use !== 'id') throw new Error(`token_use is ${String(payload.token_use)}, not id`);
    },
  });
  const response = await fetch(jwksUri);
  if (!response.ok) throw new Error(`The user pool's JWKS at ${jwksUri} answered ${response.status}`);
  verifier.cacheJwks((await response.json()) as Parameters<typeof verifier.cacheJwks>[0]);
  return { verify: (token) => verifier.verify(token) };
}

/** API Gateway's claims map: strings only, a list (`cognito:groups`) as its values joined by commas. */
function asGatewayClaims(payload: JwtPayload): Record<string, string> {
  const claims: Record<string, string> = {};
  for (const [name, value] of Object.entries(payload)) claims[name] = Array.isArray(value) ? value.join(',') : String(value);
  return claims;
}
