/** The one error class of gatehouse/client: the server's error `type`, the HTTP status and the page it named. */
export class AuthClientError extends Error {
  override readonly name = "AuthClientError"
  /** The server's error type (e.g. "CredentialsSignin", "TwoFactorCodeInvalid"), or "NetworkError" / "InvalidResponse" / "PasskeyCancelled" / "NoPasskeyProvider" / "InvalidProvider" from the client itself. */
  readonly type: string
  /** The HTTP status (0 when no answer came); 400 when the server answered a redirect-as-JSON that carried the error. */
  readonly status: number
  /** The page the server would have shown (the sign-in page with `?error=`), when it said. */
  readonly url?: string

  constructor(type: string, message: string, status: number, url?: string, options?: { cause?: unknown }) {
    super(message, options)
    this.type = type
    this.status = status
    if (url !== undefined) this.url = url
  }
}

interface ErrorBody {
  error?: { type?: unknown; message?: unknown }
  url?: unknown
}

/** The AuthClientError of a JSON answer `{ error: { type, message }, url? }`, or undefined when it names none. */
export function errorFromBody(body: unknown, status: number): AuthClientError | undefined {
  const error = (body as ErrorBody | null)?.error
  if (!error || typeof error.type !== "string") return undefined
  const url = (body as ErrorBody).url
  return new AuthClientError(error.type, typeof error.message === "string" ? error.message : error.type, status >= 400 ? status : 400, typeof url === "string" ? url : undefined)
}
