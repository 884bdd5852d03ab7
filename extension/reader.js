// The page helper (page.js and the files before it) in the extension's own isolated world
// of each frame, through chrome.scripting. The hub's debugger evaluates in this same world,
// so element ids, and the refs the hub gives them, stay the same with or without a
// debugger; and reading a page through chrome.scripting needs no debugger at all (no "is
// debugging" bar).

// the page helper's files in their order (PAGE_FILES in bridge/engine/frames.py), then doc.js
const FILES = ["page_elements.js", "page_values.js", "page_hints.js", "page_locators.js",
               "page_hits.js", "page_drag.js", "page_tables.js", "page_cards.js",
               "page_invalid.js", "page_info.js", "page_input.js", "page.js", "doc.js"];

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

// Install the page helper in a document of an agent tab as it commits (webNavigation's
// onCommitted details), so that the hub's first read there finds it (no second trip to
// install it); where the extension cannot script the document, nothing happens. The
// worker calls it for agent tabs only, never for the person's.
export function prepare(details) {
  if (!details.documentId) return;
  chrome.scripting.executeScript({
    target: { tabId: details.tabId, documentIds: [details.documentId] },
    world: "ISOLATED", files: FILES, injectImmediately: true,
  }).catch(() => {});
}

// The tab's frames now: {frameId, parentFrameId, documentId, url}, active documents only.
export async function frames(tabId) {
  const all = (await chrome.webNavigation.getAllFrames({ tabId: Number(tabId) })) || [];
  return all.filter((f) => !f.documentLifecycle || f.documentLifecycle === "active")
    .map((f) => ({ frameId: f.frameId, parentFrameId: f.parentFrameId,
                   documentId: f.documentId, url: f.url }));
}

// One read in a frame's isolated world. chrome.scripting sends the function's source, so
// it must stand alone. The reads are the page helper's (see bridge/cdp/ext_reader.py); one
// that throws answers {thrown}, as the debugger would report the helper's error.
function read(name, args) {
  const ts = globalThis.__ts;
  if (!ts) return { missing: true };
  const UNKNOWN = {};
  const one = () => {
    let value;
    switch (name) {
      case "call": value = ts[args[0]](...args[1]); break;
      case "json": value = JSON.stringify(ts[args[0]](...args[1])); break;
      case "alive": { const e = ts.get(args[0]); value = !!e && e.isConnected; break; }
      case "readyState": value = document.readyState; break;
      case "hasFocus": value = document.hasFocus(); break;
      case "includes": value = ts.pageText().includes(args[0]); break;
      case "hrefAnd": value = [location.href, ts[args[0]]()]; break;
      case "history": { // the session history as the page sees it (same-origin URLs)
        const nav = globalThis.navigation;
        value = nav && nav.currentEntry ?
          [history.length, nav.entries().map((e) => e.url), nav.currentEntry.index] :
          [history.length, null, null];
        break;
      }
      case "frameIndex": { // this frame's index among its parent's frames
        value = -1;
        if (window.parent !== window) {
          for (let i = 0; i < window.parent.frames.length; i++) {
            if (window.parent.frames[i] === window) value = i;
          }
        }
        break;
      }
      case "ownerOf": { // the frame element (shadow roots too) showing frames[args[0]]
        const win = window.frames[args[0]];
        value = 0;
        const stack = [document];
        while (stack.length && win) {
          const root = stack.pop();
          for (const el of root.querySelectorAll("*")) {
            if (el.shadowRoot) stack.push(el.shadowRoot);
            if (/^(IFRAME|FRAME|OBJECT|EMBED)$/.test(el.tagName) && el.contentWindow === win) {
              value = ts.idOf(el);
            }
          }
        }
        break;
      }
      default: return UNKNOWN;
    }
    return value;
  };
  try {
    const value = one();
    return value === UNKNOWN ? { unknown: name } : { value, doc: globalThis.__tsDoc };
  } catch (e) {
    return { thrown: String((e && (e.stack || e.message)) || e), doc: globalThis.__tsDoc };
  }
}

// A read in one document of the tab, installing the page helper there first if needed.
export async function run(tabId, documentId, name, args) {
  const target = documentId ? { tabId: Number(tabId), documentIds: [String(documentId)] } :
    { tabId: Number(tabId), frameIds: [0] }; // the main frame's document, whichever it is
  const once = async () => {
    const [res] = await chrome.scripting.executeScript({
      target, world: "ISOLATED", func: read, args: [String(name), args || []],
      injectImmediately: true });
    // which document answered: "" asked for the main frame's, whichever it is
    return res && res.result ? { ...res.result, documentId: res.documentId } : null;
  };
  let got = await once();
  if (got && got.missing) {
    await chrome.scripting.executeScript({ target, world: "ISOLATED", files: FILES,
                                           injectImmediately: true });
    got = await once();
  }
  return got;
}
