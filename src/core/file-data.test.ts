import { describe, expect, it } from "vitest";
import { fileDataProblem } from "./file-data.js";

describe("fileDataProblem", () => {
  it("takes a base64 data: URL of an allowed media type that matches the part", () => {
    expect(fileDataProblem({ url: "data:image/png;base64,iVBORw0KGgo=", mediaType: "image/png" })).toBeUndefined();
    expect(fileDataProblem({ url: "data:image/jpeg;base64,/9j/4A==", mediaType: "image/*" })).toBeUndefined();
    expect(
      fileDataProblem({ url: "data:text/plain;charset=utf-8;base64,aGk=", mediaType: "text/plain" }),
    ).toBeUndefined();
  });

  it("refuses every URL that would have to be fetched", () => {
    for (const url of ["file:///etc/passwd", "https://example.invalid/a.png", "http://127.0.0.1:9/x", "ftp://host/x"]) {
      expect(fileDataProblem({ url, mediaType: "image/png" })).toMatch(/is a URL, and URLs are never fetched/);
    }
  });

  it("refuses a media type that is not allowed, a mismatch, and data that is not base64", () => {
    expect(fileDataProblem({ url: "data:text/html;base64,PGI+", mediaType: "text/html" })).toMatch(
      /"text\/html" is not accepted/,
    );
    expect(fileDataProblem({ url: "data:application/pdf;base64,JVBE", mediaType: "image/png" })).toMatch(
      /says media type "image\/png"/,
    );
    expect(fileDataProblem({ url: "data:image/png;base64,file:///etc/passwd", mediaType: "image/png" })).toMatch(
      /not valid base64/,
    );
    expect(fileDataProblem({ url: "data:text/plain,hello", mediaType: "text/plain" })).toMatch(
      /must be base64-encoded/,
    );
  });
});
