/**
 * The project's budget settings (strategy, threshold, context limit override), saved by the server
 * in `.ctxwin/config.json`; each with the server's one-sentence explanation.
 */
import { useEffect, useId, useState, type FormEvent } from "react";
import type { ApiClient } from "../api/client";
import type { SettingsView, Strategy } from "../api/types";

/** @example <SettingsPanel api={api} /> */
export function SettingsPanel({ api }: { api: ApiClient }) {
  const [settings, setSettings] = useState<SettingsView | undefined>(undefined);
  const [strategy, setStrategy] = useState<Strategy>("rollover");
  const [threshold, setThreshold] = useState("");
  const [contextLimit, setContextLimit] = useState("");
  const [message, setMessage] = useState<{ text: string; error: boolean } | undefined>(undefined);
  const ids = { strategy: useId(), threshold: useId(), contextLimit: useId() };

  const show = (loaded: SettingsView) => {
    setSettings(loaded);
    setStrategy(loaded.strategy);
    setThreshold(String(loaded.threshold));
    setContextLimit(loaded.contextLimit === null ? "" : String(loaded.contextLimit));
  };

  useEffect(() => {
    let live = true;
    api.settings().then(
      (loaded) => live && show(loaded),
      (error: unknown) =>
        live && setMessage({ text: error instanceof Error ? error.message : String(error), error: true }),
    );
    return () => {
      live = false;
    };
  }, [api]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (settings === undefined) return;
    const limit = contextLimit.trim() === "" ? null : Number(contextLimit);
    // Only what changed: a server without a model refuses any context limit, even an unchanged one.
    const change: Parameters<ApiClient["saveSettings"]>[0] = {};
    if (strategy !== settings.strategy) change.strategy = strategy;
    if (Number(threshold) !== settings.threshold) change.threshold = Number(threshold);
    if (limit !== settings.contextLimit) change.contextLimit = limit;
    try {
      const saved = await api.saveSettings(change);
      show(saved);
      setMessage({ text: `Saved to ${saved.path}. New turns use these settings.`, error: false });
    } catch (error) {
      setMessage({ text: error instanceof Error ? error.message : String(error), error: true });
    }
  };

  if (settings === undefined)
    return message?.error === true ? (
      <p className="error">{message.text}</p>
    ) : (
      <p className="hint">Loading settings…</p>
    );
  return (
    <form className="settings" onSubmit={(event) => void save(event)}>
      <div className="field">
        <label htmlFor={ids.strategy}>Strategy</label>
        <select
          id={ids.strategy}
          value={strategy}
          onChange={(event) => setStrategy(event.target.value as Strategy)}
          aria-describedby={`${ids.strategy}-help`}
        >
          <option value="rollover">rollover</option>
          <option value="compact">compact</option>
          <option value="off">off</option>
        </select>
        <p className="hint" id={`${ids.strategy}-help`}>
          {settings.explanations.strategy}
        </p>
      </div>
      <div className="field">
        <label htmlFor={ids.threshold}>Threshold</label>
        <input
          id={ids.threshold}
          type="number"
          min={0.1}
          max={0.95}
          step={0.05}
          value={threshold}
          onChange={(event) => setThreshold(event.target.value)}
          aria-describedby={`${ids.threshold}-help`}
          required
        />
        <p className="hint" id={`${ids.threshold}-help`}>
          {settings.explanations.threshold}
        </p>
      </div>
      <div className="field">
        <label htmlFor={ids.contextLimit}>Context limit (tokens)</label>
        <input
          id={ids.contextLimit}
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          placeholder="model default"
          value={contextLimit}
          onChange={(event) => setContextLimit(event.target.value)}
          aria-describedby={`${ids.contextLimit}-help`}
        />
        <p className="hint" id={`${ids.contextLimit}-help`}>
          {settings.explanations.contextLimit}
        </p>
      </div>
      <button type="submit">Save settings</button>
      {message === undefined ? null : (
        <p className={message.error ? "error" : "status"} role={message.error ? "alert" : "status"}>
          {message.text}
        </p>
      )}
    </form>
  );
}
