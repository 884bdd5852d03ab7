// The page helper (page.js and the files before it) in the extension's own isolated world
// of each frame, through chrome.scripting. The hub's debugger evaluates in this same world,
// so element ids, and the refs the hub gives them, stay the same with or without a
// debugger; and reading a page through chrome.scripting needs no debugger at all (no "is
// debugging" bar).

import tabstewardHook from "./hook.js";

// the page helper's files in their order (PAGE_FILES in bridge/engine/frames.py), then doc.js
const FILES = ["page_elements.js", "page_states.js", "page_values.js", "page_words.js",
               "page_hints.js", "page_pager.js", "page_locators.js", "page_motion.js",
               "page_hits.js", "page_covers.js", "page_scroll.js", "page_hover.js",
               "page_shown.js", "page_dialogs.js", "page_drag.js", "page_tables.js",
               "page_cards.js", "page_invalid.js", "page_said.js", "page_items.js",
               "page_watch.js", "page_info.js", "page_text.js", "page_markdown.js",
               "page_input.js", "page_walk.js", "page.js", "doc.js"];

// Install the page helper (once per document) in every frame of the tab the extension's host
// permissions reach; each frame's document token.
export async function inject(tabId) {
  const results = await chrome.scripting.executeScript({
    target: { tabId: Number(tabId), allFrames: true },
    world: "ISOLATED",
    files: FILES,
    injectImmediately: true,
  });
  return results.map((r) => ({ frameId: r.frameId, documentId: r.documentId, doc: r.result }));
}

// The hub's secret for the main-world hook (hook.js), once the hub has told it (`hook.key`);
// kept for a restarted worker in session storage, which pages and content scripts cannot read.
let hookKey = "";
const HOOK_KEY = /^[A-Za-z0-9]{8,64}$/;
chrome.storage.session.get("hookKey").then((got) => {
  if (!hookKey && HOOK_KEY.test(String(got.hookKey))) hookKey = got.hookKey;
}).catch(() => {});

// Use `key` as the hook's secret in the documents agent tabs commit from now on; false when
// it is no such secret (letters and digits, 8 to 64), and nothing changed.
export function useHookKey(key) {
  if (typeof key !== "string" || !HOOK_KEY.test(key)) return false;
  hookKey = key;
  chrome.storage.session.set({ hookKey: key }).catch(() => {});
  return true;
}

// Install the page helper in a document of an agent tab as it commits (webNavigation's
// onCommitted details), so that the hub's first read there finds it (no second trip to
// install it); where the extension cannot script the document, nothing happens. The
// worker calls it for agent tabs only, never for the person's.
export function prepare(details) {
  if (!details.documentId) return;
  const target = { tabId: details.tabId, documentIds: [details.documentId] };
  // the hook that watches the listeners the page's scripts add and the timers they arm,
  // first, so that it is there before them where it can be: the same one the debugger puts
  // into each new document, so a page read without the debugger has what it sees too
  if (hookKey) {
    chrome.scripting.executeScript({
      target, world: "MAIN", func: tabstewardHook, args: [hookKey], injectImmediately: true,
    }).catch(() => {});
  }
  // a page waiting for a frame that a hidden tab read without a debugger never draws:
  // the snapshot says so (page.js `undrawn`) instead of showing its empty places as all.
  // It goes next, small, so that it is in before the page's own scripts run where it can.
  chrome.scripting.executeScript({
    target, world: "MAIN", func: watchFrames, args: [FRAME_KEY], injectImmediately: true,
  }).catch(() => {});
  chrome.scripting.executeScript({
    target, world: "ISOLATED", files: FILES, injectImmediately: true,
  }).catch(() => {});
  chrome.scripting.executeScript({
    target, world: "ISOLATED", func: (key) => { (globalThis.__tsReads ||= {}).frameKey = key; },
    args: [FRAME_KEY], injectImmediately: true,
  }).catch(() => {});
}

// The name of the events by which the page helper asks the watcher below what it saw;
// unknown to pages, which cannot list the events a document hears.
const FRAME_KEY = `ts-frames-${crypto.randomUUID()}`;

// Run in the page's own world as its document commits (chrome.scripting sends the
// function's source, so it stands alone): it notes when the page first asks for a frame
// after the last one came (an animation frame, or a ResizeObserver's or an
// IntersectionObserver's first report, which come with the next frame drawn), and answers
// the helper's `${key}-ask` with how many milliseconds that ask has waited (at least 1;
// 0: none waits). What it wraps keeps its name, its length and what its toString says.
// Best effort: a page's inline script may run before it is there, and go unseen.
function watchFrames(key) {
  const frame = window.requestAnimationFrame;
  const Said = CustomEvent, dispatch = EventTarget.prototype.dispatchEvent;
  const now = () => performance.now();
  let since = 0; // when the oldest ask still waiting for a frame came
  const drawn = () => { since = 0; };
  const ask = () => {
    if (since) return;
    since = now() || 1;
    frame.call(window, drawn);
  };
  const wrap = (owner, name) => {
    const native = owner && owner[name];
    if (typeof native !== "function") return;
    const patched = {
      [name](...args) { ask(); return native.apply(this ?? window, args); },
    }[name];
    Object.defineProperty(patched, "length", { value: native.length });
    Object.defineProperty(patched, "toString", { value: () => native.toString() });
    owner[name] = patched;
  };
  wrap(window, "requestAnimationFrame");
  wrap(window.ResizeObserver && window.ResizeObserver.prototype, "observe");
  wrap(window.IntersectionObserver && window.IntersectionObserver.prototype, "observe");
  document.addEventListener(`${key}-ask`, () => dispatch.call(document, new Said(
    `${key}-owed`, { detail: since ? Math.max(1, Math.round(now() - since)) : 0 })));
}

// The tab's frames now: {frameId, parentFrameId, documentId, url}, active documents only.
export async function frames(tabId) {
  const all = (await chrome.webNavigation.getAllFrames({ tabId: Number(tabId) })) || [];
  return all.filter((f) => !f.documentLifecycle || f.documentLifecycle === "active")
    .map((f) => ({ frameId: f.frameId, parentFrameId: f.parentFrameId,
                   documentId: f.documentId, url: f.url }));
}

// One read in a frame's isolated world through chrome.scripting, which sends the function's
// source, so it stands alone: the read itself is doc.js's (`__tsReads.read`).
function read(name, args) {
  const reads = globalThis.__tsReads;
  return reads && reads.read ? reads.read(name, args) : { missing: true };
}

// Ports to documents of agent tabs (doc.js listens): a read over an open port costs about a
// millisecond less than one through chrome.scripting (measured on this machine: 1.3 against
// 1.9 ms for a trivial read, 3.2 against 4.4 for placing an element on a large page).
// Only a document this worker saw commit, and that nothing has replaced since, is read this
// way: a document being left may keep its port open and answer nothing there (measured: a
// read sent as the next page commits waited for ever), where chrome.scripting answers at
// once.
const PORT = "tabsteward.read";
const ports = new Map(); // documentId -> {port, waiting: Map(id -> settle), heard}
const shownIn = new Map(); // "tabId:frameId" -> the document an agent tab's frame shows
let sent = 0;

// An agent tab's frame committed a document (webNavigation.onCommitted): it is the one
// shown there; the one it replaced, and on a new page every frame's, are not.
export function committed(details) {
  const { tabId, frameId, documentId } = details;
  if (!documentId) return;
  for (const [key, doc] of shownIn) {
    if (key === `${tabId}:${frameId}` || (frameId === 0 && key.startsWith(`${tabId}:`))) {
      shownIn.delete(key);
      if (doc !== documentId) letGo(doc);
    }
  }
  if (!details.documentLifecycle || details.documentLifecycle === "active") {
    shownIn.set(`${tabId}:${frameId}`, documentId);
  }
}

// An agent tab closed: none of its documents is shown any longer.
export function tabClosed(tabId) {
  for (const [key, doc] of shownIn) {
    if (key.startsWith(`${tabId}:`)) {
      shownIn.delete(key);
      letGo(doc);
    }
  }
}

// Close the port to a document no longer shown; its reads under way answer that it went.
function letGo(documentId) {
  const entry = ports.get(documentId);
  if (!entry) return;
  ports.delete(documentId);
  entry.port.disconnect();
  for (const settle of entry.waiting.values()) settle(null);
  entry.waiting.clear();
}

const isShown = (tabId, documentId) => {
  for (const [key, doc] of shownIn) {
    if (doc === documentId && key.startsWith(`${tabId}:`)) return true;
  }
  return false;
};

// A read over the document's port: the answer; null when the document went before it
// answered; undefined when no port could be had (nothing ran: read another way).
function overPort(tabId, documentId, name, args) {
  if (!isShown(tabId, documentId)) return Promise.resolve(undefined);
  const entry = ports.get(documentId) || connect(tabId, documentId);
  if (!entry) return Promise.resolve(undefined);
  const id = ++sent;
  return new Promise((resolve) => {
    entry.waiting.set(id, resolve);
    try {
      entry.port.postMessage({ id, name, args });
    } catch { // disconnected meanwhile: its onDisconnect settles the rest
      entry.waiting.delete(id);
      resolve(entry.heard ? null : undefined);
    }
  });
}

// A new port to the document's helper (null when Chrome refuses it at once), kept until
// either end lets go.
function connect(tabId, documentId) {
  let port;
  try {
    port = chrome.tabs.connect(tabId, { name: PORT, documentId });
  } catch {
    return null;
  }
  const entry = { port, waiting: new Map(), heard: false };
  port.onMessage.addListener((m) => {
    entry.heard = true;
    const settle = m && entry.waiting.get(m.id);
    if (!settle) return;
    entry.waiting.delete(m.id);
    settle(m.got && typeof m.got === "object" ? m.got : null);
  });
  port.onDisconnect.addListener(() => {
    void chrome.runtime.lastError; // "Receiving end does not exist", or the document went
    if (ports.get(documentId) === entry) ports.delete(documentId);
    // never answered: no helper took it (nothing ran; the read then goes through
    // chrome.scripting, which installs one), or the document went (that way finds it gone)
    for (const settle of entry.waiting.values()) settle(entry.heard ? null : undefined);
    entry.waiting.clear();
  });
  ports.set(documentId, entry);
  return entry;
}

// A read in one document of the tab, installing the page helper there first if needed:
// over the document's port where one can be had, else through chrome.scripting.
export async function run(tabId, documentId, name, args) {
  const doc = documentId ? String(documentId) : "";
  if (doc) {
    const got = await overPort(Number(tabId), doc, String(name), args || []);
    if (got === null) return null; // the document went during the read
    if (got !== undefined && !got.missing) return { ...got, documentId: doc };
  }
  const target = doc ? { tabId: Number(tabId), documentIds: [doc] } :
    { tabId: Number(tabId), frameIds: [0] }; // the main frame's document, whichever it is
  const once = async () => {
    const [res] = await chrome.scripting.executeScript({
      target, world: "ISOLATED", func: read, args: [String(name), args || []],
      injectImmediately: true });
    // which document answered: "" asked for the main frame's, whichever it is. Asked for
    // one that just went, Chrome may run the read in the document after it: gone
    if (!res || !res.result || (doc && res.documentId !== doc)) return null;
    return { ...res.result, documentId: res.documentId };
  };
  let got = await once();
  if (got && got.missing) {
    await chrome.scripting.executeScript({ target, world: "ISOLATED", files: FILES,
                                           injectImmediately: true });
    got = await once();
  }
  return got;
}
