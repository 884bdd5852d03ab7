// The page helper: what the page's animations do. Those that end (not a spinner's) move
// what a click aims at, so it waits for them (page_hits.js `point`); those taking an
// element to no opacity take it out of the page (a dialog, a menu or a toast closing): a
// person sees it go, and reads the page without it.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;

  // whether an animation is running towards an end
  const ending = (a) => a.playState === "running" && !!a.effect &&
    a.effect.getComputedTiming().endTime < Infinity;

  // The elements fading out of the document: an animation that ends runs them from some
  // opacity to none (a CSS transition or animation, or the page's own), or folds them shut
  // from some height to none (Bootstrap's collapse closing), outermost only.
  // (not yet while it waits out its delay: a toast shown for 2 s, then faded, is read)
  // `roots`: shadow roots whose animations count too (the document's leave them out)
  const GOING = { opacity: 1, height: undefined, maxHeight: undefined };  // -> with no start
  const goesOut = (first, last) => Object.entries(GOING).some(([key, start]) =>
    last[key] !== undefined && parseFloat(last[key]) === 0 &&
    parseFloat(first[key] === undefined ? start : first[key]) > 0);
  function fadingOut(roots = []) {
    const found = new Set();
    for (const a of [document, ...roots].flatMap((r) => r.getAnimations())) {
      const target = a.effect && a.effect.target;
      if (!target || a.effect.pseudoElement || !ending(a)) continue;
      if ((a.currentTime || 0) < a.effect.getTiming().delay) continue;
      const frames = a.effect.getKeyframes();
      const first = frames[0], last = frames[frames.length - 1];
      if (frames.length > 1 && goesOut(first, last)) found.add(target);
    }
    for (const el of [...found]) {
      for (let up = el.parentElement; up; up = up.parentElement) {
        if (found.has(up)) {
          found.delete(el);
          break;
        }
      }
    }
    return found;
  }

  // The shadow roots `el` is in, innermost first (none for one in the document, or none)
  function rootsAbove(el) {
    const roots = [];
    for (let r = el && el.getRootNode(); r instanceof ShadowRoot; r = r.host.getRootNode())
      roots.push(r);
    return roots;
  }

  // The text of the document's body without the words of what fades out of it
  function unfaded(text) {
    for (const el of fadingOut()) {
      const gone = document.body.contains(el) ? el.innerText : "";
      if (gone && gone.trim()) text = text.replace(gone, "");
    }
    return text;
  }

  // What an animation moves that changes what a person can read: whether and where a thing
  // shows (a panel growing open, a dialog fading in, a menu sliding down), not its colours,
  // nor the lift or press of what the pointer is over (a card rising under it)
  const SHOWING = new Set(["opacity", "visibility", "display", "height", "maxHeight",
    "minHeight", "width", "maxWidth", "minWidth", "transform", "translate", "scale", "clip",
    "clipPath", "top", "left", "right", "bottom", "gridTemplateRows", "gridTemplateColumns"]);
  const LIFTS = new Set(["transform", "translate", "scale"]);
  const FRAME_KEYS = new Set(["offset", "computedOffset", "easing", "composite"]);
  function shows(a) {
    const keys = new Set();
    for (const frame of a.effect.getKeyframes()) {
      for (const key of Object.keys(frame)) if (!FRAME_KEYS.has(key)) keys.add(key);
    }
    const all = [...keys];
    if (!all.some((k) => SHOWING.has(k) || k.startsWith("inset") || k.startsWith("margin")))
      return false;
    const target = a.effect.target;
    return !(all.every((k) => LIFTS.has(k)) && target && target.matches(":hover"));
  }

  // The ms until the last of the page's animations that change what shows (in any shadow
  // root too) and end within `cap` ms has ended; 0 when none runs. A look right after an
  // action waits for them (motion.py), as a person waits for a panel to open.
  function motionLeft(cap) {
    let left = 0;
    for (const root of P.allRoots()) {
      for (const a of root.getAnimations()) {
        if (!ending(a) || !(a.playbackRate > 0) || !shows(a)) continue;
        const t = a.effect.getComputedTiming();
        const ms = (t.endTime - (t.localTime || 0)) / a.playbackRate;
        if (ms > 0 && ms <= cap) left = Math.max(left, ms);
      }
    }
    return Math.ceil(left);
  }

  // Whether the page drew two frames since the debugger's attach number `n` showed it,
  // counted from the first look once the page finds itself shown (placing.py
  // `drawn_once_shown`: input waits for them)
  const drawn = new Map();
  function drawnSince(n) {
    if (!drawn.has(n)) {
      drawn.set(n, 0);
      const count = () => {
        drawn.set(n, drawn.get(n) + 1);
        if (drawn.get(n) < 2) requestAnimationFrame(count);
      };
      if (!document.hidden) requestAnimationFrame(count);
      else document.addEventListener("visibilitychange", () => requestAnimationFrame(count),
                                     { once: true });
    }
    return drawn.get(n) >= 2;
  }

  Object.assign(P, { ending, fadingOut, rootsAbove, unfaded, motionLeft, drawnSince });
})();
