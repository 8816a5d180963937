/**
 * Which files a message may carry (issue 46): a file travels as its bytes, a base64 `data:` URL of
 * an allowed media type, never as a URL (`file:`, `https:`, …) that something would have to fetch.
 * A message that names a URL is refused before anything is stored, so no turn of the session ever
 * asks to read or download it.
 */

/** Media types a file part may have: images, PDF and plain-text formats the providers take. */
export const ALLOWED_FILE_MEDIA_TYPES: readonly string[] = [
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "application/pdf",
  "text/plain",
  "text/markdown",
  "text/csv",
  "application/json",
];

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*);base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Why a file part with `url` and `mediaType` cannot be taken, or `undefined` when it can: the URL
 * must be a base64 `data:` URL whose media type is allowed and matches the part's (`image/*` takes
 * any allowed image type).
 *
 * @example fileDataProblem({ url: "file:///etc/passwd", mediaType: "text/plain" }) // "… is not a data: URL …"
 */
export function fileDataProblem({ url, mediaType }: { url: string; mediaType: string }): string | undefined {
  const allowed = `Allowed media types: ${ALLOWED_FILE_MEDIA_TYPES.join(", ")}.`;
  const header = DATA_URL.exec(url);
  if (header === null) {
    const shown = url.length > 80 ? `${url.slice(0, 80)}…` : url;
    if (/^data:/i.test(url)) return "A file part's data: URL must be base64-encoded (data:<media type>;base64,<data>).";
    if (/^[a-z][a-z0-9+.-]*:/i.test(url))
      return `A file part must carry its data as a base64 data: URL; ${JSON.stringify(shown)} is a URL, and URLs are never fetched.`;
    return "A file part must carry its data as a base64 data: URL (data:<media type>;base64,<data>).";
  }
  const urlType = (header[1] ?? "").trim().toLowerCase();
  const partType = mediaType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!ALLOWED_FILE_MEDIA_TYPES.includes(urlType))
    return `A file of media type ${JSON.stringify(urlType)} is not accepted. ${allowed}`;
  const matches = partType === urlType || (partType === "image/*" && urlType.startsWith("image/"));
  if (!matches)
    return `A file part says media type ${JSON.stringify(partType)} but its data: URL holds ${JSON.stringify(urlType)}.`;
  const payload = url.slice(header[0].length);
  if (payload.length % 4 !== 0 || !BASE64.test(payload))
    return "A file part's data: URL holds text that is not valid base64.";
  return undefined;
}
