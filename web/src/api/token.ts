/**
 * The per-start access token: read once from `?token=` in the address, kept in sessionStorage (this
 * tab only), and removed from the address bar so it is not bookmarked or shared by accident.
 */

const STORAGE_KEY = "ctxwin.token";

/**
 * @example
 * const token = takeAccessToken(); // "3f2a…" or "" when the page was opened without one
 */
export function takeAccessToken({
  location = window.location,
  history = window.history,
  storage = window.sessionStorage,
} = {}): string {
  const url = new URL(location.href);
  const fromAddress = url.searchParams.get("token");
  if (fromAddress !== null && fromAddress !== "") {
    storage.setItem(STORAGE_KEY, fromAddress);
    url.searchParams.delete("token");
    history.replaceState(history.state, "", `${url.pathname}${url.search}${url.hash}`);
    return fromAddress;
  }
  return storage.getItem(STORAGE_KEY) ?? "";
}
