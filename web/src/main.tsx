/** Entry point of the web UI bundle. */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { takeAccessToken } from "./api/token";
import { App } from "./app";
import "./styles/base.css";
import "./styles/layout.css";
import "./styles/transcript.css";
import "./styles/chat.css";
import "./styles/timeline.css";
import "./styles/eval.css";

const root = document.getElementById("root");
if (root !== null) {
  createRoot(root).render(
    <StrictMode>
      <App token={takeAccessToken()} />
    </StrictMode>,
  );
}
