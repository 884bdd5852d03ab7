// Run after the page helper's files in the extension's isolated world of a frame: this
// document's token, made once (the hub keeps an element's ref across debugger sessions by
// it); the reads the worker asks of the helper (reader.js), whether it comes with
// chrome.scripting or over a port it opened to this document (`__tsReads.read`); and the
// port's listener.
globalThis.__tsDoc ||= crypto.randomUUID();

(() => {
  // One read of the page helper: {value, doc}, {thrown, doc} when the helper threw (as the
  // debugger would report it), {unknown} for a read there is none of. See reader.js.
  const reads = globalThis.__tsReads ||= {};
  reads.read = function read(name, args) {
    const ts = globalThis.__ts;
    if (!ts) return { missing: true };
    const UNKNOWN = {};
    const one = () => {
      switch (name) {
        case "call": return ts[args[0]](...args[1]);
        case "json": return JSON.stringify(ts[args[0]](...args[1]));
        case "readyState": return document.readyState;
        case "hasFocus": return document.hasFocus();
        case "includes": return ts.pageText().includes(args[0]);
        case "history": { // the session history as the page sees it (same-origin URLs)
          const nav = globalThis.navigation;
          return nav && nav.currentEntry ?
            [history.length, nav.entries().map((e) => e.url), nav.currentEntry.index] :
            [history.length, null, null];
        }
        case "frameIndex": { // this frame's index among its parent's frames
          if (window.parent !== window) {
            for (let i = 0; i < window.parent.frames.length; i++) {
              if (window.parent.frames[i] === window) return i;
            }
          }
          return -1;
        }
        case "ownerOf": { // the frame element (shadow roots too) showing frames[args[0]]
          const win = window.frames[args[0]];
          let value = 0;
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
          return value;
        }
        default: return UNKNOWN;
      }
    };
    try {
      const value = one();
      return value === UNKNOWN ? { unknown: name } : { value, doc: globalThis.__tsDoc };
    } catch (e) {
      return { thrown: String((e && (e.stack || e.message)) || e), doc: globalThis.__tsDoc };
    }
  };

  // The worker's port to this document (reader.js PORT): each message {id, name, args} is
  // answered {id, got} with the read's answer. Only this extension can open a port to its
  // own isolated world; the page cannot see it. One listener a document: a new install of
  // the helper replaces the last one's.
  if (reads.listener) {
    try {
      chrome.runtime.onConnect.removeListener(reads.listener);
    } catch {
      // a listener of the extension before it was reloaded: its runtime is gone with it
    }
  }
  reads.listener = (port) => {
    if (port.name !== "tabsteward.read" || !port.sender || port.sender.id !== chrome.runtime.id) {
      return;
    }
    port.onMessage.addListener((m) => {
      if (!m || !Number.isInteger(m.id)) return;
      reads.overPort = (reads.overPort || 0) + 1; // how many came this way (tests read it)
      const ok = typeof m.name === "string" && Array.isArray(m.args);
      port.postMessage({ id: m.id,
                         got: ok ? reads.read(m.name, m.args) : { unknown: "" } });
    });
  };
  chrome.runtime.onConnect.addListener(reads.listener);
})();
