// Tabsteward's main-world hook: remembers which elements got click-like listeners (and
// which drop listeners: a sortable list's; hover listeners: a row's; wheel listeners: a
// box the page scrolls itself), and names them, when asked, by dispatching an event the
// isolated-world helper listens for; it counts the timers (and frame callbacks) the page
// arms in reply to input and as it loads, for a look after an action or a load to wait
// for, and in a hidden document runs the timers that are due when a read asks (the pump:
// Chrome runs them late there). It also holds the shield: while
// mouse input meant for a frame of another process is sent, this document stops every
// trusted mouse and pointer event before its page sees one, and tells the helper that some
// came. It keeps the ARIA web components set through their ElementInternals, which no
// attribute shows, and counts the shadow roots the page makes, for the helper to ask.
// One function, run with the hub's secret as KEY: as the debugger's script for new
// documents (tab.py wraps it in a call) and, through the extension, by chrome.scripting in
// each agent tab's document as it commits (extension/reader.js), which sends its source
// alone: it must use nothing from outside itself.
export default function tabstewardHook(KEY) {
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
  // (not touchstart alone: a mouse never fires it; Vuetify's toast listens for a swipe)
  const TYPES = new Set(["click", "mousedown", "mouseup", "pointerdown", "pointerup",
                         "dblclick"]);
  const DROP = new Set(["dragover", "drop"]);
  // a row that shows its actions by script while the pointer is over it listens for these
  const HOVER = new Set(["mouseenter", "mouseover", "pointerenter", "pointerover"]);
  // a box whose overflow is hidden and that the page scrolls itself (perfect-scrollbar)
  const WHEEL = new Set(["wheel", "mousewheel", "DOMMouseScroll"]);
  // a field whose page hears its keys (jQuery's keyup search): a fill ends on a key
  const KEYS = new Set(["keydown", "keyup", "keypress"]);
  const marked = [], dropped = [], hovered = [], wheeled = [], keyed = [];
  const seen = new WeakSet(), seenDrop = new WeakSet(), seenHover = new WeakSet();
  const seenWheel = new WeakSet(), seenKey = new WeakSet();
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
      else if (HOVER.has(type)) mark(this, hovered, seenHover);
      else if (WHEEL.has(type)) mark(this, wheeled, seenWheel);
      else if (KEYS.has(type)) mark(this, keyed, seenKey);
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
  // The timers a page arms as it handles input (a search box's debounce, a menu's delay:
  // up to a second; the caret's move: CKEditor's mention list; a route's change: a page's
  // view drawn after its popstate), and those their callbacks arm in turn: a look after an
  // action waits for them to run, as a person waits for the results to come. Only their
  // due times are kept; the page's own clock timers, armed later outside its input
  // handlers, are not.
  const REPLIES = new Set(["input", "beforeinput", "change", "keydown", "keyup", "keypress",
                           "click", "dblclick", "mousedown", "mouseup", "pointerdown",
                           "pointerup", "submit", "paste", "compositionend", "focusin",
                           "focusout", "focus", "blur", "mouseover", "pointerover",
                           "mouseenter", "pointerenter", "selectionchange", "popstate",
                           "hashchange"]);
  // Those a document arms as it loads (its scripts, their DOMContentLoaded and load
  // handlers) to draw what it shows a moment later (Preact runs its effects after the next
  // frame or 100 ms) count too, if short: a read after the load waits for them as well.
  // Not in a hidden document: there the browser runs them up to a second late, and most
  // are a page's chores, not its drawing; nor after its first 5 s (a load that never ends:
  // a page's own loop would hold every read).
  // (and while a hover moves the pointer, its moves: a tooltip's delay armed on each,
  // Radix's; not otherwise, where a page's idle watch would hold every click's look)
  const MOVES = new Set(["mousemove", "pointermove"]), HOVER_MS = 1000;
  let hoverUntil = 0;
  const REPLY = { wait: 1000, chain: 3 }, ARMED_MAX = 64;
  const LOADING = { wait: 150, chain: 1, until: 5000 };
  // timer id -> [when it is due (performance.now), whether it was armed as the page loaded]
  const armed = new Map();
  let depth = 0;  // while a counted timer's callback runs: its place in the chain (1 ...)
  let chained = REPLY;  // and the kind of its chain
  const event = Object.getOwnPropertyDescriptor(window, "event");
  const current = event && event.get ? event.get.bind(window) : () => undefined;
  const loading = (e) => now() < LOADING.until && document.visibilityState !== "hidden" &&
    (document.readyState !== "complete" || (!!e && e.type === "load" && e.target === document));
  // the chain place of a timer armed now (0: not counted), and its chain's kind
  const place = (ms) => {
    if (armed.size >= ARMED_MAX) return [0, REPLY];
    if (depth > 0) return depth < chained.chain && ms <= chained.wait ?
      [depth + 1, chained] : [0, REPLY];
    const e = current();
    if (e && (REPLIES.has(e.type) || (MOVES.has(e.type) && now() < hoverUntil)))
      return [ms <= REPLY.wait ? 1 : 0, REPLY];
    return [ms <= LOADING.wait && loading(e) ? 1 : 0, LOADING];
  };
  const hide = (patched, original) => {
    Object.defineProperty(patched, "length", { value: original.length });
    Object.defineProperty(patched, "toString", { value: () => original.toString() });
  };
  // Every timer armed with a function, until it runs or is cleared (at most PENDING_MAX).
  // A hidden tab runs its page's chained timers once a second at best (once a minute after
  // five minutes hidden): an agent reading such a tab without the debugger (which shows the
  // page as visible) would see it move ten times slower than a person looking at it. So
  // while the document is hidden, the helper's reads ask first (`ts-pump-`) that the timers
  // already due run now, once each, oldest due first; the browser's own late call of one
  // then does nothing. An interval is due again its delay after it last ran.
  // tag + id -> {due, every, repeats (an interval), pumped (when the pump last ran it), run}
  const pending = new Map();
  const PENDING_MAX = 512;
  const report = typeof reportError === "function" ? reportError : (e) => { throw e; };
  const shown = Object.getOwnPropertyDescriptor(Document.prototype, "visibilityState").get;
  // `name` arms, `clearName` disarms; ids are kept under `tag` (each kind counts its own);
  // `repeats`: an interval; `pumped`: its timers may be run by the pump; `loads`: those
  // armed as the page loads count
  const timer = (name, clearName, tag, delayOf, repeats = false, pumped = false,
                 loads = true) => {
    const arm = window[name], clear = window[clearName];
    if (typeof arm !== "function" || typeof clear !== "function") return;
    const patchedTimer = {
      [name](handler, ...rest) {
        if (typeof handler !== "function") return arm.call(window, handler, ...rest);
        const delay = delayOf(rest);
        let [at, kind] = place(delay);
        if (kind === LOADING && !loads) at = 0;
        const tracked = pumped && pending.size < PENDING_MAX;
        if (!at && !tracked) return arm.call(window, handler, ...rest);
        let id = 0;
        const run = function (...args) {
          const first = armed.delete(tag + id);  // (an interval counts until its first run)
          const outer = depth, outerKind = chained;
          if (first) { depth = at; chained = kind; }
          try { return handler.apply(this, args); } finally { depth = outer; chained = outerKind; }
        };
        // the browser's call: not for a timeout the pump ran, nor an interval's turn it ran
        const tick = function (...args) {
          const p = pending.get(tag + id);
          if (tracked && !p) return undefined;
          if (p && !repeats) pending.delete(tag + id);
          if (p && repeats) {
            const ran = p.pumped;
            p.pumped = 0;
            if (ran && now() - ran < p.every) return undefined;
            p.due = now() + p.every;
          }
          return run.apply(this, args);
        };
        id = arm.call(window, tick, ...rest);
        if (at) armed.set(tag + id, [now() + delay, kind === LOADING]);
        if (tracked) {
          pending.set(tag + id, { due: now() + Math.max(0, delay), every: Math.max(1, delay),
                                  repeats, pumped: 0,
                                  run: () => run.apply(window, rest.slice(1)) });
        }
        return id;
      },
    }[name];
    const patchedClear = {
      [clearName](id) {
        armed.delete(tag + id);
        pending.delete(tag + id);
        return clear.call(window, id);
      },
    }[clearName];
    hide(patchedTimer, arm);
    hide(patchedClear, clear);
    window[name] = patchedTimer;
    window[clearName] = patchedClear;
  };
  const given = (rest) => Number(rest[0]) || 0;
  timer("setTimeout", "clearTimeout", "t", given, false, true);
  // (a scheduler's delay: RxJS runs its debounce on one)
  timer("setInterval", "clearInterval", "t", given, true, true);
  // an idle moment comes soon after a load: due at once
  timer("requestIdleCallback", "cancelIdleCallback", "i", () => 0);
  // the next frame: a page that opens its menu or dialog there (UIkit's, Fluent's, Ionic's)
  // shows it once the tab draws again (replies.py draws a tab that does not draw itself);
  // not as it loads (a tab nobody draws would hold every read)
  timer("requestAnimationFrame", "cancelAnimationFrame", "a", () => 16, false, false, false);
  // A view transition a reply starts (a list a filter redraws through
  // `startViewTransition`): its update runs a frame later, and while its animation plays the
  // page takes no pointer (the transition's layer lies over it); it counts as a timer due at
  // once until it finished
  const transit = Document.prototype.startViewTransition;
  if (typeof transit === "function") {
    let made = 0;
    const patchedTransit = {
      startViewTransition(...args) {
        const t = transit.apply(this, args);
        if (t && t.finished && place(0)[0]) {
          const id = "v" + ++made, done = () => armed.delete(id);
          armed.set(id, [now(), false]);
          t.finished.then(done, done);
        }
        return t;
      },
    }.startViewTransition;
    hide(patchedTransit, transit);
    Document.prototype.startViewTransition = patchedTransit;
  }
  // What scrolling brings in (an endless feed: the observer of its last post arms the timer
  // or the fetch that loads the next ones): an intersection observer's callback within a
  // second of a scroll runs as a reply to input, the timers it arms counted so
  let scrolled = -Infinity;
  add.call(window, "scroll", () => { scrolled = now(); }, { capture: true, passive: true });
  const Observer = window.IntersectionObserver;
  if (typeof Observer === "function") {
    const Patched = function IntersectionObserver(callback, options) {
      const seen = typeof callback !== "function" ? callback : function (...args) {
        if (depth > 0 || now() - scrolled > REPLY.wait) return callback.apply(this, args);
        const outer = depth, outerKind = chained;
        [depth, chained] = [1, REPLY];
        try { return callback.apply(this, args); } finally { depth = outer; chained = outerKind; }
      };
      return new Observer(seen, options);
    };
    Patched.prototype = Observer.prototype;
    hide(Patched, Observer);
    window.IntersectionObserver = Patched;
  }
  let pumping = false;
  add.call(document, "ts-pump-" + KEY, () => {
    if (pumping || shown.call(document) !== "hidden") return;
    pumping = true;
    try {
      const at = now();
      const due = [...pending].filter(([, p]) => p.due <= at).sort((a, b) => a[1].due - b[1].due);
      for (const [id, p] of due) {
        if (pending.get(id) !== p) continue;  // cleared by a callback run before it
        if (p.repeats) {
          p.pumped = now();
          p.due = p.pumped + p.every;
        } else {
          pending.delete(id);
        }
        try { p.run(); } catch (e) { report(e); }
      }
    } finally {
      pumping = false;
    }
  });
  add.call(document, "ts-hovering-" + KEY, () => { hoverUntil = now() + HOVER_MS; });
  // asked: how many counted timers have not run, the ms until the last is due (0 once
  // overdue: a hidden tab runs its timers late), and how many of them were armed as the
  // page loaded; one stuck past 5 s is forgotten
  add.call(document, "ts-armed-" + KEY, () => {
    const at = now();
    let last = 0, loads = 0;
    for (const [id, [due, load]] of armed) {
      if (at - due > 5000) {
        armed.delete(id);
        continue;
      }
      last = Math.max(last, due - at);
      if (load) loads++;
    }
    dispatch.call(document, new Said("ts-armed-are-" + KEY,
                                     { detail: [armed.size, last, loads] }));
  });
  // ARIA a web component sets through its ElementInternals (Material Web's radio says so
  // that it is a radio, and whether it is checked): no attribute shows it, so it is kept
  // here, for the helper to ask (`ts-ask-aria-`: each such element is named, composed, as
  // it may sit in a shadow root, its ARIA as JSON)
  const internalsOf = new WeakMap(), ariaOf = new WeakMap(), withAria = [];
  const attach = HTMLElement.prototype.attachInternals;
  if (typeof attach === "function" && typeof ElementInternals === "function") {
    const patchedAttach = {
      attachInternals() {
        const got = attach.call(this);
        internalsOf.set(got, this);
        return got;
      },
    }.attachInternals;
    hide(patchedAttach, attach);
    HTMLElement.prototype.attachInternals = patchedAttach;
    const proto = ElementInternals.prototype;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const d = (name === "role" || name.startsWith("aria")) &&
        Object.getOwnPropertyDescriptor(proto, name);
      if (!d || !d.set || !d.get) continue;
      const set = d.set;
      const keep = { set [name](v) {
        const el = internalsOf.get(this);
        if (el) {
          let known = ariaOf.get(el);
          if (!known) {
            ariaOf.set(el, (known = {}));
            withAria.push(new WeakRef(el));
          }
          known[name] = v === null || v === undefined ? null : String(v);
        }
        return set.call(this, v);
      } };
      const setter = Object.getOwnPropertyDescriptor(keep, name).set;
      hide(setter, set);
      Object.defineProperty(proto, name, { ...d, set: setter });
    }
  }
  add.call(document, "ts-ask-aria-" + KEY, () => {
    let live = 0;
    for (let i = 0; i < withAria.length; i++) {
      const el = withAria[i].deref();
      if (!el) continue;
      withAria[live++] = withAria[i];
      if (el.isConnected) {
        dispatch.call(el, new Said("ts-aria-" + KEY, {
          composed: true, detail: JSON.stringify(ariaOf.get(el)) }));
      }
    }
    withAria.length = live;
  });
  // How many shadow roots the page made: the helper looks for what a page says (a toast's
  // live region) inside them only where there are some (page_said.js)
  let shadows = 0;
  const attachShadow = Element.prototype.attachShadow;
  if (typeof attachShadow === "function") {
    const patchedShadow = {
      attachShadow(...args) {
        const root = attachShadow.apply(this, args);
        shadows++;
        return root;
      },
    }.attachShadow;
    hide(patchedShadow, attachShadow);
    Element.prototype.attachShadow = patchedShadow;
  }
  add.call(document, "ts-ask-shadows-" + KEY, () =>
    dispatch.call(document, new Said("ts-shadows-are-" + KEY, { detail: shadows })));
  add.call(document, "ts-ask-" + KEY, () => tell(marked, "ts-mark-"));
  add.call(document, "ts-ask-drop-" + KEY, () => tell(dropped, "ts-drop-"));
  add.call(document, "ts-ask-hover-" + KEY, () => tell(hovered, "ts-hover-"));
  add.call(document, "ts-ask-wheel-" + KEY, () => tell(wheeled, "ts-wheel-"));
  add.call(document, "ts-ask-keys-" + KEY, () => tell(keyed, "ts-keys-"));
}
