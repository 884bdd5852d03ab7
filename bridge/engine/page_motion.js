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
  // opacity to none (a CSS transition or animation, or the page's own), outermost only.
  function fadingOut() {
    const found = new Set();
    for (const a of document.getAnimations()) {
      const target = a.effect && a.effect.target;
      if (!target || a.effect.pseudoElement || !ending(a)) continue;
      const frames = a.effect.getKeyframes();
      const first = frames[0], last = frames[frames.length - 1];
      if (frames.length > 1 && last.opacity !== undefined && Number(last.opacity) === 0 &&
          Number(first.opacity === undefined ? 1 : first.opacity) > 0) found.add(target);
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

  // The text of the document's body without the words of what fades out of it
  function unfaded(text) {
    for (const el of fadingOut()) {
      const gone = document.body.contains(el) ? el.innerText : "";
      if (gone && gone.trim()) text = text.replace(gone, "");
    }
    return text;
  }

  Object.assign(P, { ending, fadingOut, unfaded });
})();
