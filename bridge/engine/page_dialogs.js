// The page helper: what a dialog that names itself by no attribute is called, as a person
// reads it: its first heading, else its first words outside its controls.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { cut, clean, nameOf, HAS_WORD, NAME_MAX, CONTROLS } = P;

  // A dialog's name, else the words of its first heading (a <dialog> seldom says which),
  // else its first words outside its controls and icons (Vuetify's card title is a div);
  // those its host slots into it where it is drawn in a shadow root (Ionic's modal)
  function dialogName(el, role) {
    const name = nameOf(el, role), box = (el.querySelector("slot") && el.getRootNode().host) || el;
    if (name) return name;
    const h = box.querySelector("h1, h2, h3, h4, h5, h6, [role=heading]");
    if (h) return cut(clean(h.innerText || ""), NAME_MAX)[0];
    const w = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let t = w.nextNode(), n = 0; t && n < 50; t = w.nextNode(), n++) {
      const p = t.parentElement;
      // (not a calendar's weekday: a table's words are no title, Element Plus's picker's)
      if (HAS_WORD.test(t.data) && p && !p.closest(CONTROLS + ", [aria-hidden=true], " +
          "table, [role=grid], [role=table], [role=row]") &&
          p.checkVisibility() && !P.iconFont(p) && !slottedInControl(t, box))
        return cut(clean(t.data), NAME_MAX)[0];
    }
    return "";
  }
  // Whether words are a control's, slotted into the button a web component draws for them
  // (Ionic's toolbar's Cancel, an `ion-button` before its title)
  function slottedInControl(text, box) {
    for (let n = text; n && n !== box; n = n.assignedSlot || n.parentElement ||
         (n.getRootNode() instanceof ShadowRoot ? n.getRootNode().host : null))
      if (n.nodeType === 1 && n.matches(CONTROLS)) return true;
    return false;
  }

  Object.assign(P, { dialogName });
})();
