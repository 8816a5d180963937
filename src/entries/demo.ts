/** `ctxwin/demo`: the offline scripted model of `ctxwin demo` and the examples (no provider, no network). */
export {
  DEMO_MODEL_ID,
  DEMO_MODEL_PROVIDER,
  createDemoModel,
  type DemoModelOptions,
} from "../agent/demo/demo-model.js";
