import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { SessionProvider } from "gatehouse/react"
import { authClient } from "./auth.js"
import { App } from "./App.js"
import "./style.css"

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <SessionProvider client={authClient}>
      <App />
    </SessionProvider>
  </StrictMode>,
)
