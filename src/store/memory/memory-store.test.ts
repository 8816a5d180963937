import { describeStoreConformance } from "../conformance.js";
import { openStore } from "../open-store.js";

describeStoreConformance("memory", (context) => openStore({ backend: "memory", ...context }));
