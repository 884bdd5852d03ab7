// Tabsteward's main-world hook: remembers which elements got click-like listeners, and
// names them, when asked, by dispatching an event the isolated-world helper listens for.
(() => {
  const KEY = "__SECRET__";
  if (window[KEY]) return;
  const TYPES = new Set(["click", "mousedown", "mouseup", "pointerdown", "pointerup",
                         "touchstart", "dblclick"]);
  const marked = [];
  const seen = new WeakSet();
  const mark = (el) => {
    if (!(el instanceof Element) || seen.has(el)) return;
    const t = el.tagName;
    if (t === "HTML" || t === "BODY") return;
    seen.add(el);
    marked.push(new WeakRef(el));
  };
  const add = EventTarget.prototype.addEventListener;
  const patched = {
    addEventListener(type, listener, options) {
      if (TYPES.has(type)) mark(this);
      return add.call(this, type, listener, options);
    },
  }.addEventListener;
  Object.defineProperty(patched, "toString", { value: () => add.toString() });
  EventTarget.prototype.addEventListener = patched;
  const desc = Object.getOwnPropertyDescriptor(HTMLElement.prototype, "onclick");
  if (desc && desc.set) {
    const set = desc.set;
    Object.defineProperty(HTMLElement.prototype, "onclick", {
      ...desc, set(v) { if (v) mark(this); return set.call(this, v); },
    });
  }
  Object.defineProperty(window, KEY, { value: true });
  add.call(document, "ts-ask-" + KEY, () => {
    let live = 0;
    for (let i = 0; i < marked.length; i++) {
      const el = marked[i].deref();
      if (!el) continue;
      marked[live++] = marked[i];
      if (el.isConnected) el.dispatchEvent(new CustomEvent("ts-mark-" + KEY));
    }
    marked.length = live;
  });
})();
