// Tabsteward's page-side helper, installed once per frame in an isolated world.
// It reads the DOM (never writes to it): snapshot rows, element lookup by id, geometry,
// hit tests and text. Ids are per frame, per node, stable for the node's life.
// Its files run in the order of PAGE_FILES in frames.py (the extension's reader.js lists
// the same), sharing what they define through globalThis.__tsParts. This, the last,
// takes snapshots (their walk: page_walk.js) and publishes the helper as globalThis.__ts.
(() => {
  if (globalThis.__ts) return "present";
  const P = globalThis.__tsParts;
  const { idOf, get, walk, cardLocs, countsOn, countsOff, tablesFor, zonesFor, revealing } = P;

  // A snapshot: the walk's rows (page_walk.js), their cards' locators, and whether the page
  // waits for a frame this tab does not draw. `opts.settle`: in the top document, while
  // timers it armed as it loaded or in reply to the last input have not run (hook.js: a
  // page that draws what it shows a moment after its load, a grid a click sorts redrawn a
  // moment later), only {loading: how many}, for a read once they ran.
  function snapshot(opts) {
    P.pump(opts.hook);
    const loading = opts.settle ? P.loadTimers(opts.hook) : 0;
    if (loading > 0) return { loading };
    countsOn();
    tablesFor(true);
    try {
      const res = walk(opts);
      if (res.rows) {
        cardLocs(res.rows);
        res.owed = owed();
        res.age = Math.round(performance.now());  // (collect.py reads a young empty page again)
        res.undrawn = late(res.owed);
        // (a young document's components not defined yet, where modules may still bring
        // them: a kit's loader defines them as their code comes, Shoelace's; until then
        // they show as plain boxes. A page's stray tags that nothing defines, with no module
        // of its own, are no reason to wait)
        if (opts.settle && performance.now() < YOUNG_MS && document.querySelector(MODULES))
          res.parts = undefinedParts();
      }
      return res;
    } finally {
      countsOff();
      tablesFor(false);
      zonesFor(null);
      revealing(null);
    }
  }

  const YOUNG_MS = 10000, MODULES = "script[type=module], link[rel=modulepreload]";
  const undefinedParts = () => document.querySelectorAll(":not(:defined)").length;

  // Whether the page waits for a frame (an animation frame, an observer's first report)
  // that this tab does not draw: hidden (no frame comes), or over OWED_MS without one.
  const OWED_MS = 200;
  const late = (waited) => waited > 0 && (document.hidden || waited > OWED_MS);
  const undrawn = () => late(owed());

  // How many ms the page's oldest ask for a frame has waited (0: none waits; a background
  // tab with a debugger is shown as visible, and draws none all the same). The extension's
  // watcher says what waits where it runs, in a document it prepared (reader.js
  // `watchFrames`); 0 elsewhere.
  function owed() {
    const key = globalThis.__tsReads && globalThis.__tsReads.frameKey;
    if (typeof key !== "string") return 0;
    let waited = 0;
    const hear = (e) => { waited = typeof e.detail === "number" ? e.detail : 0; };
    document.addEventListener(`${key}-owed`, hear);
    document.dispatchEvent(new CustomEvent(`${key}-ask`));
    document.removeEventListener(`${key}-owed`, hear);
    return waited;
  }

  // the helper as the hub calls it: its parts' calls by name
  const CALLS = ["query", "point", "aim", "commonTarget", "scrollIntoView", "wheel", "takesDrops",
    "frameOffset", "info", "inputState", "replied", "queryIn", "pickIn", "byText",
    "order", "dropSide", "dropSpot", "placeIn", "handleOf", "settling", "focusedInfo", "describe",
    "pageText", "hasText", "fullText", "markdown", "state", "rect", "coverOf", "live", "prepare",
    "holdsFocus", "typingAt", "armed", "pump", "stillUnder", "frameBoth", "stillIn", "readText",
    "takesMany", "tiedTo", "selectBehind", "pasteInto", "endOf", "motionLeft", "confirmOf",
    "tooltips", "dialogLater", "drawnSince", "drawnAnew", "paneAt", "stillThenReplied",
    "watchAround", "sameSpot", "keysHeard"];
  globalThis.__ts = { idOf, get, snapshot, undrawn, owed, undefinedParts };
  for (const name of CALLS) globalThis.__ts[name] = P[name];
  delete globalThis.__tsParts;
  return "installed";
})()
