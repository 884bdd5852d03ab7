// Run after the page helper's files in the extension's isolated world of a frame: this
// document's token, made once. The hub keeps an element's ref across debugger sessions by it.
globalThis.__tsDoc ||= crypto.randomUUID();
