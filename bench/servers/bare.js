// The ceiling: Express 5 answering the protected route without any session check.
import express from "express"
import { serve } from "../lib/serve.js"

const app = express()
app.get("/protected", (req, res) => {
  res.json({ email: "anonymous" })
})

serve(app)
