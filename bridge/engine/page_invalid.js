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

  // What the action met: {fields: [{id, role, name, message}], more, blocked} (blocked: the
  // browser's own check stopped a form, and none went on), or null; the record starts anew.
  function invalidFound() {
    const fired = seen.filter((el) => el.isConnected);
    const blocked = fired.length > 0 && !submitted && fired.every(userInvalid);
    const found = [...new Set([...fired, ...marked().filter((el) => !before.has(el))])];
    invalidStart();
    if (!found.length) return null;
    return {
      fields: found.slice(0, SHOWN).map((el) => {
        const role = roleOf(el);
        return { id: idOf(el), role, name: nameOf(el, role),
                 message: errorOf(el) || cut(clean(el.validationMessage || ""), NAME_MAX)[0] };
      }),
      more: Math.max(0, found.length - SHOWN), blocked,
    };
  }

  Object.assign(P, { invalidStart, invalidFound });
})();
