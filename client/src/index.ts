/**
 * gatehouse/client: the browser side of Gatehouse, framework-free. One dependency,
 * @simplewebauthn/browser, loaded only when a passkey ceremony runs.
 */
export { createAuthClient } from "./client.js"
export { AuthClientError } from "./errors.js"
export type { ProviderId } from "./provider-id.js"
export type {
  AuthClient,
  AuthClientOptions,
  DeviceSession,
  PasskeySignInOptions,
  PasswordSignUpFields,
  ProviderInfo,
  SecondFactorInput,
  SecondFactorMethod,
  Session,
  SessionState,
  SessionStatus,
  SessionUser,
  SignInOptions,
  SignInResult,
} from "./types.js"
