import { jwtVerify, SignJWT } from "jose";
import { z } from "zod";

const claimsSchema = z.object({ sub: z.uuid(), sid: z.uuid(), exp: z.number().int() });

export interface AppTokenClaims {
  userId: string;
  sessionId: string;
  /** Epoch seconds. */
  exp: number;
}

const keyFor = (secret: string) => new TextEncoder().encode(secret);

/** The app JWT of decision 001: HS256, sub = user id, sid = session id, exp = session end. */
export async function signAppToken(secret: string, claims: AppTokenClaims): Promise<string> {
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(claims.userId)
    .setIssuedAt()
    .setExpirationTime(claims.exp)
    .sign(keyFor(secret));
}

/** Null for anything that is not an unexpired token we signed with well-formed claims. */
export async function verifyAppToken(secret: string, token: string): Promise<AppTokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, keyFor(secret), {
      algorithms: ["HS256"],
      requiredClaims: ["sub", "sid", "exp"],
    });
    const claims = claimsSchema.safeParse(payload);
    if (!claims.success) return null;
    return { userId: claims.data.sub, sessionId: claims.data.sid, exp: claims.data.exp };
  } catch {
    return null;
  }
}
