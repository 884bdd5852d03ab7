// Tabsteward's main-world hook: remembers which elements got click-like listeners (and
// which drop listeners: a sortable list's), and names them, when asked, by dispatching an
// event the isolated-world helper listens for.
(() => {
  const KEY = "__SECRET__";
  if (window[KEY]) return;
  const TYPES = new Set(["click", "mousedown", "mouseup", "pointerdown", "pointerup",
                         "touchstart", "dblclick"]);
  const DROP = new Set(["dragover", "drop"]);
  const marked = [], dropped = [];
  const seen = new WeakSet(), seenDrop = new WeakSet();
  const mark = (el, list = marked, known = seen) => {
    if (!(el instanceof Element) || known.has(el)) return;
    const t = el.tagName;
    if (t === "HTML" || t === "BODY") return;
    known.add(el);
    list.push(new WeakRef(el));
  };
  const add = EventTarget.prototype.addEventListener;
  const patched = {
    addEventListener(type, listener, options) {
      if (TYPES.has(type)) mark(this);
      else if (DROP.has(type)) mark(this, dropped, seenDrop);
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
  const tell = (list, name) => {
    let live = 0;
    for (let i = 0; i < list.length; i++) {
      const el = list[i].deref();
      if (!el) continue;
      list[live++] = list[i];
      if (el.isConnected) el.dispatchEvent(new CustomEvent(name + KEY));
    }
    list.length = live;
  };
  add.call(document, "ts-ask-" + KEY, () => tell(marked, "ts-mark-"));
  add.call(document, "ts-ask-drop-" + KEY, () => tell(dropped, "ts-drop-"));
})();
