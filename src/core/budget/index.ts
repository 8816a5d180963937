/**
 * The budget engine (docs/design.md §5): model catalog, token counting, calibration, request
 * estimates, the step budget decision and preflight. Pure: no I/O.
 */
export {
  CALIBRATION_DECREASE_WEIGHT,
  CALIBRATION_FACTOR_BOUNDS,
  MINIMUM_CALIBRATION_SAMPLE_TOKENS,
  applyCalibration,
  calibrationFactor,
  createCalibrationState,
  parseCalibrationState,
  updateCalibration,
  type CalibrationState,
  type ModelCalibration,
} from "./calibration.js";
export {
  DEFAULT_FILE_TOKENS,
  DEFAULT_IMAGE_TOKENS,
  TOOL_PART_OVERHEAD_TOKENS,
  countMessageContent,
  countRowTokens,
  type ContentTokenOptions,
  type CountableMessage,
} from "./message-tokens.js";
export { requestOutputLimit, type OutputLimitInput } from "./output-limit.js";
export {
  builtInModelEntries,
  contextLimitFor,
  createModelCatalog,
  defaultModelCatalog,
  lookupModel,
  type FoundModel,
  type ModelCatalog,
  type ModelCatalogEntry,
  type ModelLimits,
  type ModelLookup,
  type ModelOverride,
  type ModelOverrides,
  type UnknownModel,
} from "./model-catalog.js";
export {
  canonicalProvider,
  idCandidates,
  providerKind,
  readModelReference,
  type ModelReading,
  type ProviderKind,
} from "./model-reference.js";
export {
  preflightFreshWindow,
  preflightRequest,
  type FreshWindowInput,
  type PreflightBlocked,
  type PreflightOk,
  type PreflightOutcome,
  type PreflightUnknownLimit,
  type RequestInput,
} from "./preflight.js";
export {
  MESSAGE_OVERHEAD_TOKENS,
  REQUEST_OVERHEAD_TOKENS,
  TOOL_OVERHEAD_TOKENS,
  UNKNOWN_SCHEMA_TOKENS,
  estimateRequestTokens,
  type RequestEstimate,
  type RequestEstimateInput,
  type RequestEstimateMemo,
  type ToolDefinitionLike,
  type ToolDefinitions,
} from "./request-estimate.js";
export {
  DEFAULT_OUTPUT_RESERVE,
  DEFAULT_THRESHOLD,
  DEFAULT_WARNING_TURN_TOKENS,
  FORCE_BAND_OFFSET,
  MAXIMUM_RESERVE_SHARE,
  WARN_BAND_WIDTH,
  budgetBands,
  evaluateStepBudget,
  hardCeilingFor,
  type BudgetBands,
  type BudgetDecision,
  type BudgetMoment,
  type BudgetReason,
  type StepBudget,
  type StepBudgetInput,
} from "./step-budget.js";
export {
  CL100K_CACHED_FACTOR,
  LONG_RUN_CHARACTERS,
  PROVIDER_ESTIMATE_FACTORS,
  UNKNOWN_PROVIDER_ESTIMATE_FACTOR,
  countEncodedTokens,
  countTokens,
  tokenizerProfileFor,
  type TokenEncodingName,
  type TokenizerProfile,
} from "./token-count.js";
export {
  createUnknownModelWarner,
  type UnknownModelNotice,
  type UnknownModelWarner,
} from "./unknown-model-warnings.js";
export { addUsage, cachedShare, NO_USAGE, usageCost, type TokenUsage, type UsageCost } from "./cost.js";
export { formatUsd } from "../chart/format-usd.js";
export { lookupModelPrices, modelPriceEntries, type ModelPrices } from "./model-prices.js";
export { stepSpend, summarizeSpend, type Spend } from "./step-spend.js";
