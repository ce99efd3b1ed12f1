// The second step of a sign-in with two-step verification on: the status is
// "pending-second-factor" (the password or the email code was right, no session yet) until a code
// from the authenticator app, or a recovery code, is accepted.
import { useState, type FormEvent } from "react"
import { useAuthClient } from "gatehouse/react"
import { messageFor } from "./messages.js"

export function SecondFactor() {
  const client = useAuthClient()
  const [recovery, setRecovery] = useState(false)
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const typed = String(new FormData(event.currentTarget).get("code")).trim()
    setBusy(true)
    setError(undefined)
    try {
      await client.verifySecondFactor(recovery ? { recoveryCode: typed } : { code: typed })
    } catch (failure) {
      setError(messageFor(failure))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="stack">
      <h1>Two-step verification</h1>
      <form className="card" onSubmit={submit} aria-label="Second step">
        <p>{recovery ? "Type one of the recovery codes you saved." : "Type the 6-digit code your authenticator app shows."}</p>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <label htmlFor="second-factor-code">{recovery ? "Recovery code" : "Code"}</label>
        <input
          id="second-factor-code"
          key={recovery ? "recovery" : "totp"}
          name="code"
          autoComplete="one-time-code"
          inputMode={recovery ? "text" : "numeric"}
          required
          autoFocus
        />
        <div className="actions">
          <button type="submit" disabled={busy}>
            Verify
          </button>
          <button type="button" className="link" onClick={() => setRecovery(!recovery)}>
            {recovery ? "Use the authenticator app" : "Use a recovery code"}
          </button>
        </div>
      </form>
      <p>
        <button type="button" className="link" onClick={() => void client.signOut({ redirect: false })}>
          Cancel and start again
        </button>
      </p>
    </div>
  )
}
