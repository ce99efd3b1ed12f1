// The app's one client, made once when the bundle loads: same origin, the router on /auth.
// Its type names the server's provider ids, so signIn("pasword") is a type error.
import { createAuthClient } from "gatehouse/client"

export type ProviderId = "password" | "nodemailer" | "passkey"

export const authClient = createAuthClient<ProviderId>({ basePath: "/auth" })
