/**
 * `oidc-provider`'s adapter over Gatehouse's (the `…OidcRecord` methods, adapter.ts): every model
 * it stores (clients registered at run time, grants, codes, tokens, its sessions and interactions)
 * becomes one record, so that every process of the app shares them. A code or refresh token is
 * consumed atomically: of two processes redeeming the same one at once, one wins and the other
 * answers `invalid_grant`, with the grant's tokens revoked, as a replayed code is.
 */
import type { ResolvedConfig } from "../core/config/resolved.js"
import { openToken, sealToken } from "../jwt/codec.js"
import type { AdapterOidcRecord } from "./adapter.js"

/** A stored client's secret is sealed with the app's secret (the adapter never holds it in clear). */
const SECRET_SALT = "gatehouse.identity-provider.client-secret"
const SEAL_SECONDS = 100 * 365 * 24 * 60 * 60
const SEALED = "gatehouse_sealed_secret"

function sealSecret(payload: Payload, config: ResolvedConfig): Payload {
  if (typeof payload.client_secret !== "string") return payload
  const { client_secret: secret, ...rest } = payload
  return { ...rest, [SEALED]: sealToken({ secret }, config.secrets[0] as string, SECRET_SALT, SEAL_SECONDS) }
}

function openSecret(payload: Payload, config: ResolvedConfig): Payload {
  const sealed = payload[SEALED]
  if (typeof sealed !== "string") return payload
  const { [SEALED]: _sealed, ...rest } = payload
  const secret = openToken(sealed, config.secrets, SECRET_SALT)?.payload.secret
  // A secret no app secret opens (the app's secret was replaced): the client cannot authenticate.
  return typeof secret === "string" ? { ...rest, client_secret: secret } : rest
}

type Payload = Record<string, unknown> & { consumed?: number }

/** What the bridge needs of `oidc-provider`'s exports: the error a lost race answers with. */
export interface ProviderErrors {
  InvalidGrant: new (description: string) => Error
}

const text = (value: unknown): string | null => (typeof value === "string" && value ? value : null)

export function toRecord(model: string, id: string, given: Payload, expiresIn: number | undefined, config: ResolvedConfig): AdapterOidcRecord {
  const payload = model === "Client" ? sealSecret(given, config) : given
  return {
    model,
    id,
    payload: JSON.stringify(payload),
    grantId: text(payload.grantId),
    userCode: text(payload.userCode),
    uid: model === "Session" ? text(payload.uid) : null,
    accountId: text(payload.accountId),
    clientId: model === "Client" ? id : text(payload.clientId),
    expiresAt: typeof expiresIn === "number" ? new Date(Date.now() + expiresIn * 1000) : null,
    consumedAt: typeof payload.consumed === "number" ? new Date(payload.consumed * 1000) : null,
  }
}

export function fromRecord(record: AdapterOidcRecord | null, config: ResolvedConfig): Payload | undefined {
  if (!record) return undefined
  const parsed = JSON.parse(record.payload) as Payload
  const payload = record.model === "Client" ? openSecret(parsed, config) : parsed
  if (record.consumedAt) payload.consumed = Math.floor(record.consumedAt.getTime() / 1000)
  else delete payload.consumed
  return payload
}

/** The class `oidc-provider` takes as its `adapter` option, bound to this configuration's adapter. */
export function storageFor(config: ResolvedConfig, errors: ProviderErrors) {
  const adapter = config.adapter!
  return class GatehouseOidcStorage {
    readonly model: string
    constructor(model: string) {
      this.model = model
    }

    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      await adapter.putOidcRecord!(toRecord(this.model, id, payload, expiresIn, config))
    }

    async find(id: string): Promise<Payload | undefined> {
      return fromRecord(await adapter.getOidcRecord!(this.model, id), config)
    }

    async findByUserCode(userCode: string): Promise<Payload | undefined> {
      return fromRecord(await adapter.findOidcRecord!(this.model, { userCode }), config)
    }

    async findByUid(uid: string): Promise<Payload | undefined> {
      return fromRecord(await adapter.findOidcRecord!(this.model, { uid }), config)
    }

    async consume(id: string): Promise<void> {
      if (await adapter.consumeOidcRecord!(this.model, id, new Date())) return
      // Another request consumed it first (or it just expired): a replay, answered as one.
      const record = await adapter.getOidcRecord!(this.model, id)
      if (record?.grantId) await adapter.deleteOidcGrant!(record.grantId)
      throw new errors.InvalidGrant(`${this.model === "RefreshToken" ? "refresh token" : "code"} already used`)
    }

    async destroy(id: string): Promise<void> {
      await adapter.deleteOidcRecord!(this.model, id)
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await adapter.deleteOidcGrant!(grantId)
    }
  }
}
