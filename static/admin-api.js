// The admin's credentials and calls. The token lives in sessionStorage only: it goes away
// with the tab, never lands in localStorage, and is sent only as a bearer header.

import { ApiError } from "./api.js";

const KEY = "ziggurat.admin";

/** {token, name} while signed in (in this tab), else null. */
export function adminSession() {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) || "null");
  } catch {
    return null;
  }
}

export function signIn(token, name) {
  sessionStorage.setItem(KEY, JSON.stringify({ token, name }));
}

export function signOut() {
  sessionStorage.removeItem(KEY);
}

/** Call `/api/admin…` as the signed-in admin; the name goes to the audit log. */
export async function adminApi(method, path, body, session = adminSession()) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (session?.token) headers.Authorization = `Bearer ${session.token}`;
  if (session?.name) headers["X-Admin-Name"] = encodeURIComponent(session.name);
  let response;
  try {
    response = await fetch(`/api/admin${path}`, {
      method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, "network", "Cannot reach the server. Check your connection and try again.");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw new ApiError(response.status, data?.error?.code || "http_error",
                       data?.error?.message || `The server answered ${response.status}.`);
  }
  return data;
}
