/**
 * Sign-in with fields the application checks itself (username and password, a one-time code...).
 * `gatehouse/providers/credentials`.
 */
import type { CredentialsConfig } from "./types.js"

export type CredentialsOptions = Partial<Omit<CredentialsConfig, "type">> & Pick<CredentialsConfig, "authorize">

export default function Credentials(options: CredentialsOptions): CredentialsConfig {
  return {
    id: "credentials",
    name: "Credentials",
    credentials: {},
    ...options,
    type: "credentials",
  }
}

export type { CredentialsConfig, CredentialInput } from "./types.js"
