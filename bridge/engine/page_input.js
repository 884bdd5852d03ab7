// The page helper's calls an action makes on one element around its input: its look-up
// with where the input goes, in one call (`live`), a field made ready for text (`prepare`),
// whether it kept the focus (`holdsFocus`), whether a press left the page as it was under
// the pointer (`stillUnder`), and what a drag by an offset ends on (`endOf`). Each is one
// call of the helper, so the extension makes it through chrome.scripting as it reads
// (bridge/cdp/ext_reader.py).
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { idOf, get, info, aim, point, fullText, hitTarget, hits, roleOf, composedParent } = P;

  // A ref's element read only while it is still in the page (null when it is not), in one
  // call: `what` is "alive" (true), "info", "fullText", or, with its info, where input
  // goes ("aim", with `secret`, or "point"; it is brought into view). Input goes nowhere
  // (`placed` null) when the element is disabled or, for a check, it already is as
  // `check.want` asks or it is no toggle (`check.toggles`: the roles that are checked or
  // not). `within`: the words of the card its locator named, which must still stand
  // around it (null when it had none).
  function live(id, what, secret, check, within) {
    if (secret) P.hookKey = secret;
    const el = get(id);
    if (!el || !el.isConnected) return null;
    // (its card's words changed around it: the ref names another entry now, `stillIn`)
    if (within && !P.stillIn(id, within)) return null;
    if (what === "alive") return true;
    if (what === "fullText") return fullText(id);
    const i = info(id);
    if (what === "info") return i;
    let skip = !i || i.disabled;
    if (!skip && check) {
      const on = (i.states || []).includes("checked") || i.checked === true;
      skip = on === check.want ||
        (!check.toggles.includes(i.role) && !["checkbox", "radio"].includes(i.type));
    }
    return { info: i, placed: skip ? null : what === "aim" ? aim(id, secret) : point(id) };
  }

  // A field made ready for text, as a person clicks into it: focused, with all of it
  // selected (`fill`, to be replaced) or the caret at its end (`type`). "ok" ("ok:N" when
  // it takes N more characters only: its maxlength; "keys" when it takes a key at a time;
  // "keys:" and the chord that selects all, or goes to the end, in a code editor),
  // "gone", or why it takes no text ("readonly", "disabled", "not-text:<type or tag>").
  // An input or text area the page hears keys of (its own listener, or a box's around it)
  // says "+keys" after "ok": a fill ends on a key there, as a person's typing does.
  const NO_TEXT = new Set(["checkbox", "radio", "button", "submit", "reset", "image", "file",
                           "range", "color", "hidden"]);
  function keysHeard(el) {
    const heard = P.listened(P.hookKey, "keys");
    for (let n = el; n && heard.size; n = n.parentElement) if (heard.has(n)) return true;
    return false;
  }
  const BLOCKS = "p, h1, h2, h3, h4, h5, h6, li, blockquote, pre, div";
  function emptyBlockAt(editor, range) {
    const at = range.startContainer;
    const block = (at.nodeType === 1 ? at : at.parentElement).closest(BLOCKS);
    return !!block && block !== editor && editor.contains(block) && !block.textContent.trim();
  }
  // (or a caret with no words after it: at the end of a heading the editor keeps an empty
  // paragraph after, TipTap's, a person typing goes on with the heading)
  function atWordsEnd(editor, range) {
    const rest = range.cloneRange();
    rest.setEnd(editor, editor.childNodes.length);
    return !/\S/.test(rest.toString());
  }
  function prepare(id, mode) {
    const el = get(id);
    if (!el) return "gone";
    const tag = el.tagName;
    // a code editor's own field (Monaco's, Ace's, CodeMirror 5's): it holds none of the
    // text; the editor's keys select all of it or go to its end ("keys:" the chord)
    if (P.codeEditorOf(el)) {
      el.focus();
      const mac = /^Mac/.test(navigator.platform) ? "Meta" : "Control";
      return "keys:" + mac + (mode === "fill" ? "+a" : "+End");
    }
    if (tag === "INPUT" || tag === "TEXTAREA") {
      const t = (el.type || "").toLowerCase();
      if (tag === "INPUT" && NO_TEXT.has(t)) return "not-text:" + t;
      if (el.readOnly) return "readonly";
      if (el.disabled) return "disabled";
      // (typed at the end, unless the page puts the caret as the field takes focus: a mask
      // that shows its template, IMask's, at its first free place)
      const end = el.value.length, placing = mode !== "fill" &&
        el.getRootNode().activeElement !== el;
      if (placing) try { el.setSelectionRange(end, end); } catch (e) { /* no caret */ }
      el.focus();
      // a field that hands its focus on to another as it takes it (a formatted number shown
      // until focused, its raw field then: Kendo's): the text goes there ("moved:" its id)
      const took = document.activeElement;
      if (took !== el && took && (took.tagName === "INPUT" || took.tagName === "TEXTAREA") &&
          !NO_TEXT.has((took.type || "").toLowerCase())) return "moved:" + idOf(took);
      try {
        if (mode === "fill") el.select();
        else if (!placing || el.selectionStart === end) el.setSelectionRange(end, end);
      } catch (e) { // types without a selection (email, number): select() still works
        if (mode === "fill") el.select();
      }
      const heard = mode === "fill" && keysHeard(el) ? "+keys" : "";
      if (!(el.maxLength >= 0)) return "ok" + heard;
      const kept = mode === "fill" ? 0 : el.value.length;
      return "ok:" + Math.max(0, el.maxLength - kept) + heard;
    }
    if (el.isContentEditable) {
      const sel = el.ownerDocument.getSelection();
      // (typed where the caret is when the editor has focus and its page put the caret in
      // an empty block: the heading a slash command or a toolbar made, TipTap's; not at its
      // end, an empty paragraph the editor keeps after it)
      const kept = mode !== "fill" && el.getRootNode().activeElement === el &&
        sel.rangeCount > 0 && sel.isCollapsed && el.contains(sel.anchorNode) &&
        (emptyBlockAt(el, sel.getRangeAt(0)) || atWordsEnd(el, sel.getRangeAt(0)));
      el.focus();
      if (!kept) {
        const range = el.ownerDocument.createRange();
        range.selectNodeContents(el);
        if (mode !== "fill") range.collapse(false);
        sel.removeAllRanges();
        sel.addRange(range);
      }
      // a segment of a date or a time (React Aria's): it takes a key at a time, and the
      // page moves focus on to the next segment as one is full
      return roleOf(el) === "spinbutton" ? "keys" : "ok";
    }
    return "not-text:" + tag.toLowerCase();
  }

  // What a release at (x, y) of this frame's viewport reaches, for a drag by an offset:
  // `{hit, target}` (ids; `info`, what it activates, the release's click among them), or
  // `{frame}` when the point is inside a child frame, or `{outside}` when it is outside the
  // viewport (the page is not scrolled for it: the hand moves over what is shown).
  function endOf(x, y, secret) {
    const [w, h] = P.view();
    if (!(x >= 0 && y >= 0 && x < w && y < h)) return { outside: [w, h] };
    const hit = hitTarget(null, x, y);
    if (!hit) return { outside: [w, h] };
    const t = P.activationOf(hit, secret) || hit;
    if (t.tagName === "IFRAME" || t.tagName === "FRAME") return { frame: P.describe(t) };
    return { hit: idOf(hit), target: idOf(t), info: info(idOf(t)) };
  }

  // Where the first box inside element `id` stands ([left, top]): what a drag inside it may
  // move while it stands still (a map's pane, Leaflet's, moved by a transform), or null
  function paneAt(id) {
    const el = get(id), pane = el && el.firstElementChild;
    if (!pane) return null;
    const r = pane.getBoundingClientRect();
    return [r.left, r.top];
  }

  // `text` given to the page's own paste handler of element `id` (a code editor's field), as
  // a person's paste gives it: whether the page took it (it stopped the browser's own).
  function pasteInto(id, text) {
    const el = get(id);
    if (!el) return false;
    const data = new DataTransfer();
    data.setData("text/plain", text);
    return !el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true,
                                                           cancelable: true, composed: true }));
  }

  // Where keys typed now go: [the id of the element that has focus in this document, deep
  // in shadow roots (`cur` when it is element `cur` or inside it: a field a component
  // draws; 0: none, or the body), how many more characters it takes (-1: any number; 0: it
  // is full)]. A frame's element holding focus is where keys go on into that frame.
  function typingAt(cur) {
    let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    // (the body has focus when nothing has, unless it is the field: an editor's frame, TinyMCE's)
    if (!el || (el === document.body && !el.isContentEditable) ||
        el === document.documentElement) return [0, 0];
    const held = cur ? get(cur) : null;
    let id = 0;
    for (let n = el; held && n && !id; n = composedParent(n)) if (n === held) id = cur;
    id = id || idOf(el);
    if (!(el.maxLength >= 0)) return [id, -1];
    const picked = (el.selectionEnd || 0) - (el.selectionStart || 0);
    return [id, Math.max(0, el.maxLength - el.value.length + picked)];
  }

  // Whether the element (or one inside it) has focus: a focus handler may pass it on.
  function holdsFocus(id) {
    const el = get(id);
    const active = document.activeElement;
    return !!el && (el === active || el.contains(active));
  }

  // Whether a release at (x, y) lands where the press did: on the element hit then (`hitId`)
  // or inside the element acted on (`id`). A press may move the page (a grid focusing its
  // cell scrolls, a list renders again) and put it back a moment later, in a task or at
  // the next frame.
  function stillUnder(id, hitId, x, y) {
    const hit = hitTarget(null, x, y);
    const el = get(id), was = hitId ? get(hitId) : null;
    return !!hit && ((!!el && hits(el, hit)) || (!!was && hits(was, hit)));
  }

  // Whether the page hears the keys of element `id` (a number field a fill types into then).
  const keysOf = (id) => ((el) => !!el && keysHeard(el))(get(id));
  Object.assign(P, { paneAt, live, prepare, pasteInto, endOf, holdsFocus, typingAt, stillUnder,
    keysHeard: keysOf });
})();
