import { describe, expect, it } from "vitest";
import { escapeHtml, renderEvalReport } from "./report-html.js";
import { FIXTURE_HEADER, FIXTURE_RESULTS, HOSTILE_TEXT } from "./test-support/results-fixture.js";

const page = renderEvalReport({ header: FIXTURE_HEADER, results: FIXTURE_RESULTS, file: "results.jsonl" });
const count = (text: string, pattern: RegExp) => (text.match(pattern) ?? []).length;

describe("renderEvalReport", () => {
  it("is one whole HTML document with balanced sections, charts and tables", () => {
    expect(page.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(page.trimEnd().endsWith("</html>")).toBe(true);
    expect(count(page, /<html[\s>]/g)).toBe(1);
    for (const tag of ["section", "svg", "table", "figure", "tr", "td", "th"]) {
      expect(count(page, new RegExp(`<${tag}[\\s>]`, "g")), tag).toBe(count(page, new RegExp(`</${tag}>`, "g")));
    }
    expect(page).toContain('<meta charset="utf-8">');
    expect(page).toContain("<title>ctxwin eval · demo (ctxwin&#39;s scripted eval model)</title>");
  });

  it("is self-contained: no script, nothing to fetch, and a policy that forbids both", () => {
    expect(page).not.toMatch(/<script/i);
    expect(page).not.toMatch(/<[^>]*\b(src|href)=/i);
    expect(page).not.toMatch(/https?:\/\//);
    expect(page).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    );
  });

  it("has a section per suite with a score and a token bar for each strategy, and its table rows", () => {
    const sections = page.split("<section").slice(1);
    expect(sections.map((section) => /data-suite="([^"]+)"/.exec(section)?.[1])).toEqual(["continuity", "needle"]);
    for (const section of sections) {
      for (const strategy of ["rollover", "compact", "off"]) {
        // A score bar, and the token bar's input and output segments.
        expect(count(section, new RegExp(`<rect data-strategy="${strategy}"`, "g")), strategy).toBe(3);
        expect(section).toMatch(new RegExp(`<tr><td class="text">${strategy}</td>`));
      }
    }
    const needle = sections[1]!;
    expect(needle).toContain('aria-label="Score: rollover: 100.0%, compact: 50.0%, off: 0.0%"');
    expect(needle).toContain(
      '<td class="text">needle-2</td><td>compact</td><td>scored</td><td>50.0%</td><td>12,000</td>',
    );
    // The token bar is labelled with its total and cost.
    expect(needle).toContain(">21k · $0.0200</text>");
  });

  it("escapes every result text: a hostile error or answer stays text", () => {
    expect(page).not.toContain(HOSTILE_TEXT);
    expect(page).not.toMatch(/<img/i);
    expect(page).toContain(`<td class="text">${escapeHtml(HOSTILE_TEXT)}</td>`);
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&#60;a href=&#34;x&#34;&#62;&#39;&#38;&#39;&#60;/a&#62;");
  });

  it("says so when the file holds no results yet", () => {
    expect(renderEvalReport({ header: FIXTURE_HEADER, results: [] })).toContain("<p>No results yet.</p>");
  });
});
