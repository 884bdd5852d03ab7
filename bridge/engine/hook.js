// Tabsteward's main-world hook: remembers which elements got click-like listeners (and
// which drop listeners: a sortable list's), and names them, when asked, by dispatching an
// event the isolated-world helper listens for. It also holds the shield: while mouse input
// meant for a frame of another process is sent, this document stops every trusted mouse
// and pointer event before its page sees one, and tells the helper that some came.
(() => {
  const KEY = "__SECRET__";
  // what it calls is taken before a page's script could replace it, and the secret is kept
  // off every object a page can list: a page that learnt it could lower its frame's shield
  const add = EventTarget.prototype.addEventListener;
  const remove = EventTarget.prototype.removeEventListener;
  const dispatch = EventTarget.prototype.dispatchEvent, Said = CustomEvent;
  let there = false;  // installed once per document: a hook already there answers
  const here = () => { there = true; };
  add.call(document, "ts-here-" + KEY, here);
  dispatch.call(document, new Said("ts-there-" + KEY));
  remove.call(document, "ts-here-" + KEY, here);
  if (there) return;
  add.call(document, "ts-there-" + KEY, () => dispatch.call(document, new Said("ts-here-" + KEY)));
  const TYPES = new Set(["click", "mousedown", "mouseup", "pointerdown", "pointerup",
                         "touchstart", "dblclick"]);
  const DROP = new Set(["dragover", "drop"]);
  const marked = [], dropped = [];
  const seen = new WeakSet(), seenDrop = new WeakSet();
  // the kinds of events each element listens for: an app's root that listens for every
  // kind on behalf of its whole tree (React's container: about 80) is no control, and no
  // drop zone; no control listens for this many kinds itself
  const kinds = new WeakMap();
  const ROOT_KINDS = 24;
  const delegates = (el) => {
    const k = kinds.get(el);
    return !!k && k.size >= ROOT_KINDS;
  };
  const mark = (el, list = marked, known = seen) => {
    if (!(el instanceof Element) || known.has(el)) return;
    const t = el.tagName;
    if (t === "HTML" || t === "BODY") return;
    known.add(el);
    list.push(new WeakRef(el));
  };
  const patched = {
    addEventListener(type, listener, options) {
      if (this instanceof Element) {
        const k = kinds.get(this);
        if (k) k.add(type);
        else kinds.set(this, new Set([type]));
      }
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
  const tell = (list, name) => {
    let live = 0;
    for (let i = 0; i < list.length; i++) {
      const el = list[i].deref();
      if (!el) continue;
      list[live++] = list[i];
      if (el.isConnected && !delegates(el)) dispatch.call(el, new Said(name + KEY));
    }
    list.length = live;
  };
  // the shield, on `window` in the capture phase: first on every event's path, and first
  // among window's listeners in a document it was installed in before the page's scripts
  const now = performance.now.bind(performance);
  const stop = Event.prototype.stopImmediatePropagation, prevent = Event.prototype.preventDefault;
  let until = 0, came = false;
  const shield = (e) => {
    if (until === 0 || !e.isTrusted || now() > until) return;
    stop.call(e);
    // a drag over it is not accepted (that would take preventDefault); the rest's defaults
    // (a link's navigation, a dropped file's opening, focus) do not happen
    if (e.type !== "dragenter" && e.type !== "dragover") prevent.call(e);
    came = true;
  };
  for (const type of ["mousedown", "mouseup", "click", "dblclick", "auxclick", "contextmenu",
                      "pointerdown", "pointerup", "mousemove", "pointermove", "mouseover",
                      "mouseout", "mouseenter", "mouseleave", "pointerover", "pointerout",
                      "pointerenter", "pointerleave", "dragstart", "dragenter", "dragover",
                      "dragleave", "drop"]) {
    add.call(window, type, shield, { capture: true });
  }
  add.call(document, "ts-shield-" + KEY, () => {  // up for 5 s at most: a lost hub lets go
    until = now() + 5000;
    came = false;
    dispatch.call(document, new Said("ts-shield-up-" + KEY));
  });
  add.call(document, "ts-shield-peek-" + KEY, () => {
    if (came) dispatch.call(document, new Said("ts-shield-came-" + KEY));
  });
  add.call(document, "ts-shield-off-" + KEY, () => {
    const got = came;
    until = 0;
    came = false;
    if (got) dispatch.call(document, new Said("ts-shield-came-" + KEY));
  });
  add.call(document, "ts-ask-" + KEY, () => tell(marked, "ts-mark-"));
  add.call(document, "ts-ask-drop-" + KEY, () => tell(dropped, "ts-drop-"));
})();
