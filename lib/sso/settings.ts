/**
 * The types of the `sso` option (issue #28), as given and as resolved (options.ts). A file of its
 * own, with no code, so every module of the folder can name them without an import cycle.
 */
export interface SsoOptions {
  /** The app as a SAML service provider. */
  saml?: {
    /** PEM private key that signs AuthnRequests and LogoutRequests (connections with `signRequests`). */
    signingKey?: string
    /** PEM certificate of that key, published in the SP metadata. */
    signingCert?: string
    /** Allowed clock difference with identity providers, in seconds (default 60, at most 300). */
    clockSkew?: number
    /** The largest `SAMLResponse` accepted, in characters of base64 (default 262144: 256 KiB). */
    maxResponseSize?: number
  }
  /** How domain proofs are looked up: DNS servers (`["127.0.0.1:5353"]`), or a function (default: the system's resolver). */
  dns?: { servers?: string[]; resolveTxt?: (name: string) => Promise<string[][]> }
  /** The TXT record's name before the domain (default `_gatehouse-challenge`). */
  txtPrefix?: string
}

export interface ResolvedSso {
  readonly saml: {
    readonly signingKey?: string
    readonly signingCert?: string
    readonly clockSkewMs: number
    readonly maxResponseSize: number
  }
  /** TXT records of a name (each record's strings). */
  readonly resolveTxt: (name: string) => Promise<string[][]>
  readonly txtPrefix: string
}
