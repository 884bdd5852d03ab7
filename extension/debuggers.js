// The debuggers this worker attached, and their idle clocks: a debugger no command used for
// the idle time (settings.idleDetachSeconds) is detached, so Chrome's "is debugging" bar
// comes and goes with an agent's actions. A page loading in the tab is use too (the open or
// the click that started it waits for it), for at most LOAD_HOLD. The popup shows which
// tabs have one.

const settings = { idleDetachSeconds: 10 };
const LOAD_HOLD = 30000; // ms: an open waits no longer for its page (the hub's NAV_TIMEOUT)
// debuggers this worker attached: key -> {debuggee, last (ms), since (ms), timer, busy,
// load (the page loading in the tab: {since (ms), url, doc (its documentId once committed)})}
const attached = new Map();
let released = () => {}; // told of each detach of ours that has a reason (target, reason)

// Have `tell(target, reason)` called when one of ours is let go for a reason (Chrome's
// onDetach does not fire for the extension's own detach).
export function whenReleased(tell) {
  released = tell;
}

// The settings after `changes` (already checked by the caller), every idle clock re-armed.
export function changeSettings(changes) {
  Object.assign(settings, changes);
  attached.forEach(arm);
  return { ...settings };
}

export const isAttached = (tabId) => attached.has(keyOf({ tabId }));

// The debuggee a call names, without a sessionId (child sessions share their tab's debugger).
function debuggee(target) {
  const t = target || {};
  if (t.tabId !== undefined) return { tabId: t.tabId };
  if (t.targetId !== undefined) return { targetId: t.targetId };
  if (t.extensionId !== undefined) return { extensionId: t.extensionId };
  return null;
}

const keyOf = (target) => JSON.stringify(debuggee(target));

// A command still running, or the tab's page still loading, is use: wait for its end.
const inUse = (entry) =>
  entry.busy > 0 || (entry.load !== null && Date.now() - entry.load.since < LOAD_HOLD);

function arm(entry) {
  clearTimeout(entry.timer);
  entry.timer = null;
  if (!settings.idleDetachSeconds) return;
  const due = entry.last + settings.idleDetachSeconds * 1000 - Date.now();
  entry.timer = setTimeout(() => {
    if (inUse(entry)) arm(entry);
    else release(entry.debuggee, "idle");
  }, Math.max(0, inUse(entry) ? 1000 : due));
}

// What the popup shows: which tabs have a debugger now, since when (chrome.storage.session).
export function showDebuggers() {
  const now = [...attached.values()].filter((e) => e.debuggee.tabId !== undefined)
    .map((e) => ({ tabId: e.debuggee.tabId, since: e.since }));
  chrome.storage.session.set({ debuggers: now }).catch(() => {});
}

export function remember(target) {
  // an entry Chrome let go of without telling us must not detach the new one when it idles
  const stale = attached.get(keyOf(target));
  if (stale) clearTimeout(stale.timer);
  const now = Date.now();
  const entry = { debuggee: debuggee(target), last: now, since: now, timer: null, busy: 0,
                  load: null };
  attached.set(keyOf(target), entry);
  arm(entry);
  showDebuggers();
}

// A call used the debugger (a read does not count: the clock is not reset); `busy` counts
// commands running now, which the idle detach waits for.
export function touch(target, busy = 0, read = false) {
  const entry = attached.get(keyOf(target));
  if (!entry) return;
  if (!read) entry.last = Date.now();
  entry.busy = Math.max(0, entry.busy + busy);
  arm(entry);
}

// The main frame of a tab started a navigation ("started"), committed one ("committed"), or
// a load ended ("loaded", "failed"; "interactive" changes nothing): while one of ours is
// attached to the tab, the load of the page it goes to is use, and its end restarts the
// clock. Events come late and out of order: a commit of another address (not a redirect: a
// new tab's first about:blank, committing late) is not its commit, nor the end of the
// document it leaves its end.
export function navigation(tabId, kind, details) {
  const entry = attached.get(keyOf({ tabId }));
  if (!entry) return;
  const load = entry.load;
  if (kind === "started") {
    entry.load = { since: Date.now(), url: details.url, doc: "" };
  } else if (load && kind === "committed" && (details.url === load.url ||
             (details.transitionQualifiers || []).includes("server_redirect"))) {
    load.doc = details.documentId;
  } else if (load && (kind === "loaded" || kind === "failed") &&
             (load.doc ? details.documentId === load.doc : details.url === load.url)) {
    entry.load = null;
    entry.last = Date.now();
  } else {
    return;
  }
  arm(entry);
}

export function forget(target) {
  const entry = attached.get(keyOf(target));
  if (!entry) return;
  clearTimeout(entry.timer);
  attached.delete(keyOf(target));
  showDebuggers();
}

// Detach one of ours; tell the hub why when a reason is given (Chrome's onDetach does not
// fire for the extension's own detach).
export async function release(target, reason) {
  forget(target);
  await chrome.debugger.detach(target).catch(() => {});
  if (reason) released(target, reason);
}

export function releaseAll(reason) {
  return Promise.all([...attached.values()].map((e) => release(e.debuggee, reason)));
}
