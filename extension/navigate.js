// Navigating an agent tab without the debugger: chrome.tabs loads, reloads and walks its
// history; chrome.webNavigation says when the main frame committed (or failed), which is
// when the debugger's Page.navigate would answer too. Nothing here activates the tab.

const DOCUMENT = ["onCommitted", "onErrorOccurred", "onReferenceFragmentUpdated",
                  "onHistoryStateUpdated"];
// How long an aborted main-frame navigation waits for the commit of a redirect's target:
// Chrome has reported ERR_ABORTED for a redirect whose target then committed and loaded.
const ABORT_GRACE_MS = 1000;

// The id of the document the tab's main frame shows ("" when Chrome does not say).
async function shownDocument(tabId) {
  try {
    const frame = await chrome.webNavigation.getFrame({ tabId, frameId: 0 });
    return (frame && frame.documentId) || "";
  } catch {
    return "";
  }
}

// One step through the tab's history as the page's own history.go does: Chrome's
// tabs.goBack skips entries a page added without a user's gesture (its back button does),
// and a page an agent opened never had one. Where the extension cannot script the page
// (an error page, say), the tab's own back and forward.
async function step(tabId, delta) {
  try {
    await chrome.scripting.executeScript({
      target: { tabId, frameIds: [0] }, world: "ISOLATED", injectImmediately: true,
      func: (d) => history.go(d), args: [delta] });
  } catch {
    await (delta < 0 ? chrome.tabs.goBack(tabId) : chrome.tabs.goForward(tabId));
  }
}

// Start `how` ("url", "reload", "back", "forward") on the tab and answer when its main
// frame commits a document {url}, changes in place {url, sameDocument}, or fails
// {url, errorText, seen}; {pending: true} when nothing came within `seconds`. An abort
// answers unless a redirect's target commits within ABORT_GRACE_MS (any other event ends
// the wait: a navigation that replaced this one is no success of it); `seen` lists the
// main frame's events until the answer, [event, url, error], for the hub's log. The
// document the tab showed as it began may still have been loading: its load, which this
// navigation stops, fails as that document's (an error with its documentId), no failure
// of this navigation, whose own failure names no document.
export async function go(tabId, how, url, seconds) {
  const id = Number(tabId);
  const left = await shownDocument(id);
  return new Promise((resolve, reject) => {
    const listeners = [];
    const seen = [];
    let timer = null;
    let aborted = null;
    const finish = (value, error) => {
      clearTimeout(timer);
      for (const [event, fn] of listeners) chrome.webNavigation[event].removeListener(fn);
      if (error) reject(error);
      else resolve(value);
    };
    for (const event of DOCUMENT) {
      const fn = (d) => {
        if (d.tabId !== id || d.frameId !== 0) return;
        // a new tab's first about:blank may still be loading: it is not this navigation
        if (how === "url" && d.url === "about:blank" && String(url) !== "about:blank") return;
        seen.push([event, d.url, d.error || ""]);
        if (event === "onErrorOccurred" && left && d.documentId === left) return;
        const redirected = event === "onCommitted" &&
          (d.transitionQualifiers || []).includes("server_redirect");
        if (aborted && !redirected) {
          finish(aborted);
        } else if (!aborted && event === "onErrorOccurred" && d.error === "net::ERR_ABORTED") {
          aborted = { url: d.url, errorText: d.error, seen };
          clearTimeout(timer);
          timer = setTimeout(() => finish(aborted), ABORT_GRACE_MS);
        } else if (event === "onErrorOccurred") {
          finish({ url: d.url, errorText: d.error, seen });
        } else {
          finish({ url: d.url, documentId: d.documentId,
                   sameDocument: event !== "onCommitted" });
        }
      };
      chrome.webNavigation[event].addListener(fn);
      listeners.push([event, fn]);
    }
    timer = setTimeout(() => finish({ pending: true }), Math.max(1, Number(seconds) || 30) * 1000);
    const start = {
      url: () => chrome.tabs.update(id, { url: String(url) }),
      reload: () => chrome.tabs.reload(id),
      back: () => step(id, -1),
      forward: () => step(id, 1),
    }[how];
    if (!start) {
      finish(null, new Error(`no way to navigate called ${how}; nothing was done`));
      return;
    }
    start().catch((e) => finish(null, e));
  });
}
