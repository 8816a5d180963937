/**
 * The download function of every `streamText` call the engine makes (issue 46): the AI SDK would
 * fetch a URL in a message for a provider that does not take that URL itself (`supportedUrls`);
 * ctxwin never does. A URL the model takes is passed on (the provider's API reads it); any other is
 * refused with a `DownloadError` saying so. Inputs carry files as data URLs only (core/file-data.ts),
 * so this is reached only by rows stored before that check, or by a tool result naming a URL.
 */
import { DownloadError, type streamText } from "ai";

type DownloadFunction = NonNullable<Parameters<typeof streamText>[0]["experimental_download"]>;

/** @example streamText({ model, messages, experimental_download: neverFetchUrls }) */
export const neverFetchUrls: DownloadFunction = async (requested) =>
  requested.map(({ url, isUrlSupportedByModel }) => {
    if (isUrlSupportedByModel) return null;
    const message = `ctxwin never fetches a URL named in a message (${url.protocol}…); the file must be sent as its data (a data: URL).`;
    throw new DownloadError({ url: url.toString(), message });
  });
