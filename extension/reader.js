// The page helper (page.js) in the extension's own isolated world of each frame, through
// chrome.scripting. The hub's debugger evaluates in this same world, so element ids, and
// the refs the hub gives them, stay the same from one debugger session to the next.

// Install page.js (once per document) in every frame of the tab the extension's host
// permissions reach; each frame's document token.
export async function inject(tabId) {
  const results = await chrome.scripting.executeScript({
    target: { tabId: Number(tabId), allFrames: true },
    world: "ISOLATED",
    files: ["page.js", "doc.js"],
    injectImmediately: true,
  });
  return results.map((r) => ({ frameId: r.frameId, documentId: r.documentId, doc: r.result }));
}
