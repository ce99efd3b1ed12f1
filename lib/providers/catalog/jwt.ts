/** Reading the payload of a JWT the flow has already validated (it checks nothing itself). */
import { OAuthProfileParseError } from "../../errors.js"

/** The claims of a compact JWS. Only for tokens the flow validated (an ID token after the code exchange). */
export function jwtClaims(token: unknown): Record<string, unknown> {
  const part = typeof token === "string" ? token.split(".")[1] : undefined
  if (!part) throw new OAuthProfileParseError("The ID token is missing or not a compact JWT")
  try {
    const claims: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"))
    if (claims && typeof claims === "object" && !Array.isArray(claims)) return claims as Record<string, unknown>
  } catch {
    // reported below
  }
  throw new OAuthProfileParseError("The ID token's payload is not a JSON object")
}
