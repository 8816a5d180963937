import { describe, expect, it } from "vitest";
import { fileProblem } from "./file-problem.js";

describe("fileProblem", () => {
  it("names a missing file as told, else gives the first line of what the system said", () => {
    const missing = Object.assign(new Error("ENOENT: no such file or directory, open 'x.json'"), { code: "ENOENT" });
    const denied = Object.assign(new Error("EACCES: permission denied, open 'x.json'\nmore detail"), {
      code: "EACCES",
    });
    expect(fileProblem(missing, "no such file")).toBe("no such file");
    expect(fileProblem(denied, "no such file")).toBe("EACCES: permission denied, open 'x.json'");
    expect(fileProblem("a plain reason", "no such file")).toBe("a plain reason");
  });
});
