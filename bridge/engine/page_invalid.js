// The page helper: the fields an action found invalid. A form the browser is asked to send
// (a click on its submit button, an Enter in a field) is checked first, and each field that
// fails fires `invalid` while nothing is sent; a page that checks its fields itself marks
// them aria-invalid instead. Either way the action's report names them (acting.py).
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { idOf, roleOf, nameOf, clean, cut, NAME_MAX, invalidOf, errorOf, userInvalid } = P;

  const SEEN_MAX = 20;
  const SHOWN = 5;
  // what the action began with (invalidStart) and what it met since
  let seen = [];
  let submitted = false;
  let before = new Set();

  // `invalid` bubbles not: one capturing listener hears each field a check failed; `submit`
  // says a form went on all the same
  addEventListener("invalid", (e) => {
    if (e.isTrusted && seen.length < SEEN_MAX && !seen.includes(e.target)) seen.push(e.target);
  }, true);
  addEventListener("submit", (e) => { if (e.isTrusted) submitted = true; }, true);

  // The fields the page itself says are wrong, or that the browser's check failed once the
  // person met them (those an action newly shows are what it found)
  const MARKED = "[aria-invalid]:not([aria-invalid=false]), :user-invalid";
  function marked() {
    try { return [...document.querySelectorAll(MARKED)].filter(invalidOf); }
    catch (e) { return []; }  // a browser without :user-invalid
  }

  // An action begins (info() begins every one): forget what came before it
  function invalidStart() {
    seen = [];
    submitted = false;
    before = new Set(marked());
  }

  // A form-associated custom element is checked as itself, with no role, its field drawn
  // in its shadow root (Fluent's, UI5's text field): that field, which a person sees and
  // the snapshot lists, stands for it
  const FIELD = "input:not([type=hidden]), textarea, select, [role=textbox], [role=combobox]," +
    " [role=spinbutton], [role=checkbox], [role=radio], [role=switch]";
  const custom = (el) => !roleOf(el) && !!el.shadowRoot;
  const shownField = (el) => custom(el) && el.shadowRoot.querySelector(FIELD) || el;

  // The error a page shows after a field of a form it checks itself (novalidate: the
  // browser says nothing; Bootstrap's `.invalid-feedback` a style sheet shows), in its box or
  // the box around it; "" for none.
  const FEEDBACK = /(?:^|[\s_-])(?:error|invalid|feedback)(?:[\s_-]|$)/i;
  function besideError(el) {
    if (!el.form || !el.form.noValidate) return "";
    for (let box = el.parentElement, up = 0; box && up < 2; box = box.parentElement, up++) {
      const shown = [...box.children].find((c) => c !== el && !c.contains(el) &&
        FEEDBACK.test(typeof c.className === "string" ? c.className : "") &&
        c.checkVisibility() && P.HAS_WORD.test(c.textContent || ""));
      if (shown) return clean(shown.textContent);
    }
    return "";
  }

  // What the action met: {fields: [{id, role, name, tag, message}], more, blocked}
  // (blocked: the browser's own check stopped a form, and none went on), or null; the
  // record starts anew.
  function invalidFound() {
    const fired = seen.filter((el) => el.isConnected);
    const blocked = fired.length > 0 && !submitted &&
      fired.every((el) => userInvalid(el) || custom(el));
    const met = new Map();  // the field shown -> the element checked
    for (const el of [...fired, ...marked().filter((m) => !before.has(m))]) {
      if (!met.has(shownField(el))) met.set(shownField(el), el);
    }
    const found = [...met];
    invalidStart();
    if (!found.length) return null;
    return {
      fields: found.slice(0, SHOWN).map(([el, checked]) => {
        const role = roleOf(el);
        const message = errorOf(el) || besideError(el) || el.validationMessage ||
          checked.validationMessage || "";
        return { id: idOf(el), role, name: nameOf(el, role), tag: el.localName,
                 message: cut(clean(message), NAME_MAX)[0] };
      }),
      more: Math.max(0, found.length - SHOWN), blocked,
    };
  }

  Object.assign(P, { invalidStart, invalidFound });
})();
