// The page helper: what the hub and its policy read of an element (its info: name, value,
// link, form, nearby text; what a click on it activates), and an element's state for waits.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { idOf, get, NAME_FROM_CONTENT, SKIP_TAGS, roleOf, standIn, clean, NAME_MAX, cut,
    hiddenForName, nameOf, fullNameOf, statesOf, disabledOf, valueOf, hintOf, describe,
    hitTarget, composedParent, activationOf, point, dragItem, masked, isControl, clickable,
    invalidStart, invalidFound, saidStart, saidFound } = P;

  // What a ref's element reads as: the control a label stands in for, and a toggle's once
  // it shows (a label that stood in while its box was hidden until hovered: Leaflet's)
  const stoodFor = (el) => standIn(el) || (el.tagName === "LABEL" && el.control &&
    /^(?:checkbox|radio)$/.test(el.control.type) ? el.control : el);

  function info(id, secret) {
    if (secret) P.hookKey = secret;  // (what the action asks the hook: its said record)
    const el = get(id);
    if (!el) return null;
    invalidStart();
    saidStart(el);
    metBefore = P.idsGiven();
    const src = stoodFor(el);
    const role = roleOf(src);
    const dragged = dragItem(el) && !NAME_FROM_CONTENT.has(role);
    // a container with no words but its clickables' (a card that is all one link) may do
    // what they say: judged by all it holds
    const own = isControl(src) ? null : ownWords(src) || null;
    // (an unnamed drag handle has no words of its own; one a style sheet writes words into
    // is named by them, as its snapshot line is)
    const named = fullNameOf(P.namedBy(el, src), role) || (role ? "" : P.drawnWords(src));
    const [name, nameLeft] = cut(dragged ? named || own || "" : named, NAME_MAX);
    return {
      role, name, nameLeft, tag: el.tagName.toLowerCase(),
      hint: hintOf(el, name),
      type: src.type || null, masked: masked(src), editable: !!el.isContentEditable,
      value: valueOf(src, role), checked: src.checked === undefined ? null : src.checked,
      disabled: disabledOf(src, role), connected: el.isConnected,
      states: statesOf(src, role),
      autocomplete: src.getAttribute ? src.getAttribute("autocomplete") : null,
      // (a text field that says it completes from a list: ARIA 1.1's combobox input)
      completes: !!src.getAttribute &&
        /^(?:list|both)$/.test(src.getAttribute("aria-autocomplete")),
      suggests: src.tagName === "INPUT" && !!src.list,  // (a <datalist>'s suggestions)
      field: src.getAttribute ? [src.getAttribute("name"), src.id].filter(Boolean).join(" ") : "",
      href: linkOf(el), frameUrl: window === window.top ? "" : location.href,
      form: formOf(src), box: boxOf(el), text: own === null ? shownText(src) : own,
      near: nearText(src), holder: holderOf(el, name), shown: shownNow(el),
    };
  }

  // Whether the element shows (a menu's item its menu hid by a class once chosen: not)
  const shownNow = (el) => el.isConnected && el.checkVisibility({ visibilityProperty: true });

  // What an element with no name of its own stands in, as a person finds it: the words of
  // the control or the item around it (a chip's delete icon, "Alien"), HOLDER_CHARS at
  // most; null for one named. A list that reuses its items by place shows another's
  // words there once one goes: the report says so (the same ref then deletes "Vertigo").
  const HOLDER_CHARS = 80, HOLDERS = "li, tr, article, [role=row], [role=listitem], " +
    "[role=article], " + P.CONTROLS;
  function holderOf(el, name) {
    const holder = !name && el.parentElement && el.parentElement.closest(HOLDERS);
    return holder ? clean(holder.innerText || "").slice(0, HOLDER_CHARS) || null : null;
  }

  // The words on an element that is no control (a list item, a card, a list a page listens
  // on), left of those of the clickables inside it: a click on it, a drag of it or a release
  // beside them runs none of theirs (the delete button a hovered to-do shows is not what
  // a drag of the to-do does). Policy reads these; the clickables are judged on their own
  // when a click reaches them. Read up to OWN_CHARS, through OWN_ELEMENTS elements at most.
  const OWN_CHARS = 300, OWN_ELEMENTS = 500, INLINE = /^(?:SPAN|B|STRONG|EM|I|MARK|U|S|SMALL)$/;
  function ownWords(el) {
    let out = "", budget = OWN_ELEMENTS;
    const walk = (n) => {
      for (let c = n.firstChild; c && budget > 0 && out.length < OWN_CHARS * 4;
           c = c.nextSibling) {
        if (c.nodeType === 3) out += c.data;
        if (c.nodeType !== 1 || SKIP_TAGS.has(c.tagName)) continue;
        budget--;
        if (hiddenForName(c) || clickable(c)) continue;
        const label = c.getAttribute("aria-label");
        if (label && label.trim()) out += " " + label + " ";
        else if (c.tagName === "IMG") out += " " + (c.getAttribute("alt") || "") + " ";
        else {  // (a word's letters a page marks apart, a match's bold, stay one word)
          const gap = INLINE.test(c.tagName) &&
            !P.standsApart(getComputedStyle(c).display) ? "" : " ";
          out += gap;
          walk(c.shadowRoot || c);
          out += gap;
        }
      }
    };
    walk(el.shadowRoot || el);
    return clean(out).slice(0, OWN_CHARS);
  }

  // What a person reads on the element itself, whatever its accessible name says.
  function shownText(el) {
    if (el.tagName === "INPUT") {
      const t = (el.type || "").toLowerCase();
      return t === "submit" || t === "button" || t === "reset" ? clean(el.value) : "";
    }
    if (el.tagName === "SELECT" || el.tagName === "TEXTAREA") return "";
    return clean(el.innerText || "").slice(0, 300);
  }

  // The text around the element a person reads with it: its form's, or that of the largest
  // of the four nearest containers of its form (or of itself) that stays short (a card, a
  // checkout summary, a dialog). A form or container that spans a page region counts not.
  // Amounts read from it count only for a button that sends its form and says nothing.
  const NEAR_CHARS = 600;
  const REGION = 4000;
  function nearText(el) {
    const found = el.form || (el.closest && el.closest("form"));
    const form = found && (found.textContent || "").length <= REGION ? found : null;
    let near = form ? clean(form.innerText || "") : "";
    let n = composedParent(form || el);
    for (let i = 0; n && i < 4; i++, n = composedParent(n)) {
      if (n.tagName === "BODY" || n.tagName === "HTML") break;
      if ((n.textContent || "").length > REGION) break;
      const t = clean(n.innerText || "");
      if (t.length > 400) break;
      near = t;
    }
    return near.slice(0, NEAR_CHARS);
  }

  function boxOf(el) {  // in page coordinates, for a picture of it beside a question
    const r = el.getBoundingClientRect();
    return [r.left + scrollX, r.top + scrollY, r.width, r.height];
  }

  // -- what policy reads: where a link leads and what a form holds --
  // The element with keyboard focus in this document; a frame element holding focus comes
  // back as {frame: id}, for the caller to ask that frame's document in turn.
  function focusedInfo() {
    let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    if (!el || el === document.body || el === document.documentElement) {
      invalidStart();  // (keys the page itself takes: what they change is watched too)
      saidStart(null);
      return null;
    }
    if (el.tagName === "IFRAME" || el.tagName === "FRAME") return { frame: idOf(el) };
    const found = info(idOf(el));  // (and its id: a press reads it back)
    if (found) found.local = idOf(el);
    return found;
  }

  function linkOf(el) {
    const a = el.closest && el.closest("a[href], area[href]");
    return a ? a.href : "";
  }

  const PAYMENT = /\b(cc-|card|cvc|cvv|csc|iban|expir)/i;
  const OTP = /one-time-code|\b(otp|totp|2fa|mfa)\b|verification.?code/i;

  function kindOf(input) {
    const hints = [input.getAttribute("autocomplete"), input.name, input.id].join(" ");
    if (masked(input)) return "password";
    if (PAYMENT.test(hints)) return "payment";
    if (OTP.test(hints)) return "otp";
    return "";
  }

  function formOf(el) {
    const form = el.form || (el.closest && el.closest("form"));
    if (!form) return null;
    const kinds = new Set(Array.from(form.elements).map(kindOf));
    const submitter = form.querySelector(
      "button:not([type]), button[type=submit], input[type=submit], input[type=image]");
    const submits = form === el.form && (
      (el.tagName === "BUTTON" && (el.type || "submit") === "submit")
      || (el.tagName === "INPUT" && (el.type === "submit" || el.type === "image")));
    const action = form.getAttribute("action") === null ? "" : form.action;
    return {
      action, method: (form.getAttribute("method") || "get").toLowerCase(),
      name: form.getAttribute("aria-label") || form.getAttribute("name") || form.id || "",
      submitName: submitter ? nameOf(submitter, roleOf(submitter)) : "",
      submitText: submitter ? shownText(submitter) : "",
      hasPassword: kinds.has("password"), hasPayment: kinds.has("payment"),
      hasOtp: kinds.has("otp"), submits,
    };
  }

  // The point a click on `id` goes to (`at` it, when given: page_hits.js `point`) and, when
  // `secret` is given, what it activates there: `target` (its info, with `id`), or `frame`
  // when the point is inside a child frame.
  function aim(id, secret, at) {
    const res = point(id, at);
    if (res.error) return res;
    const el = get(id);
    const hit = hitTarget(el, res.x, res.y);
    let [t, also] = P.clickOf(el, hit, secret);
    // (a click seen through a box over el reaches that box: el's own control is asked about
    // too, lest a control policy holds be clicked through a box that passes clicks on)
    const own = res.through && !also ? activationOf(el, secret) : null;
    if (own && own !== t) also = own;
    delete res.through;
    if (t && (t.tagName === "IFRAME" || t.tagName === "FRAME")) {
      res.frame = describe(t);
      return res;
    }
    if (t) {
      res.target = info(idOf(t));
      res.target.id = idOf(t);
      // (a box that handles the clicks of what it holds: the click is that content's)
      if (t !== el && t.contains(el) && !P.isControl(t) && P.holdsContent(t))
        res.target.delegate = true;
      // (the check box a label stands in for is the label's own line: its click is that)
      if (t !== el && t === stoodFor(el)) res.target.stoodFor = true;
    }
    if (also) {
      res.also = info(idOf(also));
      res.also.id = idOf(also);
    }
    if (hit) res.hit = idOf(hit);
    return res;
  }

  // What the click a press on one element and a release on another makes activates: the
  // browser sends it to their nearest common ancestor. Its info (with `id`), or null.
  function commonTarget(a, b, secret) {
    const down = get(a), up = get(b);
    if (!down || !up) return null;
    const above = new Set();
    for (let n = down; n; n = composedParent(n)) above.add(n);
    let common = up;
    while (common && !above.has(common)) common = composedParent(common);
    const t = common ? activationOf(common, secret) : null;
    if (!t) return null;
    const found = info(idOf(t));
    found.id = idOf(t);
    return found;
  }

  // What input may have changed on an element (its states and value, as `info` reads them),
  // read right after the input: no box and no text around it, so the page is not laid out
  // for it (after a click that changed the page, that layout was most of the read).
  // `secret`: the hook's (hook.js), to say how many timers the page armed in reply
  function inputState(id, secret) {
    const el = get(id);
    if (!el) return null;
    const src = stoodFor(el);
    const role = roleOf(src);
    // a button or a link says what it does in its words ("Follow" becomes "Following"), a
    // clickable named by its title in that (a player's "Play (k)" becomes "Pause (k)")
    const named = el.isConnected && (NAME_FROM_CONTENT.has(role) ||
      (!role && src.hasAttribute("title")));
    return {
      states: statesOf(src, role), value: valueOf(src, role),
      checked: src.checked === undefined ? null : src.checked, connected: el.isConnected,
      fading: el.isConnected && [...P.fadingOut()].some((f) => f.contains(el)),
      shown: shownNow(el),
      holder: el.isConnected && !named ? holderOf(el, nameOf(P.namedBy(el, src), role)) : null,
      name: named ? nameOf(P.namedBy(el, src), role) : null, ...found(), inDialog: P.inDialog(),
      armed: secret ? P.armed(secret)[0] : null,
    };
  }

  // The element a page drew anew in place of one that left (a tree's item drawn again with
  // its children, a list's row its framework renders again): the one element of its tag,
  // role and name the helper had not met as the action began (a like one the page had then
  // is another: a second box named "☐"), its state as inputState reads it and its id; null
  // when none or several (LOOK_ANEW of its tag read at most). One whose card's words its
  // ref's locator gave (`in "Alice"`) stands in that card, and may have a new name there
  // (a mail's star titled "Starred" now); never one in another card (a list drawn anew
  // from its state: the one star still "Not starred" is another mail's)
  const LOOK_ANEW = 3000;
  let metBefore = 0;  // the ids the helper had given as the action began (`info`)
  function drawnAnew(tag, role, name, words) {
    if (!words && !/\p{L}/u.test(name)) return null;  // (a glyph's name, "☐" then "☑")
    const found = [], renamed = [];
    let looked = 0;
    for (const n of document.getElementsByTagName(tag)) {
      if (++looked > LOOK_ANEW) return null;
      if (P.idKnown(n) && P.idKnown(n) < metBefore) continue;
      const src = stoodFor(n);
      if (roleOf(src) !== role || (words && !standsIn(n, words, role))) continue;
      (nameOf(P.namedBy(n, src), role) === name ? found : renamed).push(n);
      if (found.length > 1) return null;
    }
    const el = found[0] || (words && renamed.length === 1 ? renamed[0] : null);
    if (!el) return null;
    const src = stoodFor(el);
    return { id: idOf(el), states: statesOf(src, role), value: valueOf(src, role),
             checked: src.checked === undefined ? null : src.checked, connected: true,
             name: nameOf(P.namedBy(el, src), role) };
  }
  // Whether an element the page took out (`oldId`) and one that came (`newId`) stand in a
  // like place: in no popup or live region, or in ones of one role and name; a dialog's
  // Close is not the Close of a toast that came as the dialog went. True where the one
  // taken out is no longer known.
  const SPOTS = "dialog, [role=dialog], [role=alertdialog], [role=status], [role=alert], " +
    "[role=log], [role=tooltip], [role=menu], [role=listbox], [aria-live]";
  function sameSpot(oldId, newId) {
    const was = get(oldId), now = get(newId);
    const spot = (el) => ((s) => s ? `${s.tagName} ${roleOf(s)} ${nameOf(s, roleOf(s))}` : "")(
      el.closest(SPOTS));
    return !was || !now || spot(was) === spot(now);
  }
  // Whether a box around n has words beginning with `words` before it holds another element
  // like n (its card, not the list of cards)
  const CARD_TEXTS = 50;
  function standsIn(n, words, role) {
    const want = clean(words);
    for (let a = n.parentElement; a && a !== document.body; a = a.parentElement) {
      if ([...a.getElementsByTagName(n.tagName)].some((m) => m !== n &&
          roleOf(stoodFor(m)) === role)) return false;
      const texts = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
      for (let t = texts.nextNode(), k = 0; t && k < CARD_TEXTS; t = texts.nextNode(), k++)
        if (clean(t.data).startsWith(want)) return true;
    }
    return false;
  }

  // Watch what an action in a frame this document holds changes in it (frames.py
  // `watch_top`), for `replied` to say
  function watchAround() {
    invalidStart();
    saidStart(null);
    return true;
  }

  // What the page replied to an action beyond its element's state (a key's, with no element
  // read back): the fields it found invalid, and what its live regions said
  function replied() {  // (and whether the dialog the action began in still shows)
    return { ...found(), inDialog: P.inDialog() };
  }

  // A look right after an action in one read: the ms the page's animations have left
  // (motionLeft), else, none running, [what the page replied] (`replied`)
  function stillThenReplied(cap) {
    const left = P.motionLeft(cap);
    return left > 0 ? left : [replied()];
  }

  // The fields found invalid and what the page said, less the words a field's error says
  // (said once, with the field)
  function found() {
    const invalid = invalidFound(), said = saidFound();
    if (!invalid || !said) return { invalid, said };
    const errors = new Set(invalid.fields.map((f) => f.message));
    said.said = said.said.filter(([words]) => !errors.has(words));
    said.came = said.came.filter(([words]) => !errors.has(words));
    return { invalid, said: said.said.length || said.closed || said.came.length ? said : null };
  }

  // Wait helpers: state of an element by id, for `wait`.
  function state(id) {
    const el = get(id);
    if (!el || !el.isConnected) return { attached: false, visible: false };
    const src = stoodFor(el);
    const r = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    return {
      attached: true,
      visible: r.width > 0 && r.height > 0 && cs.visibility !== "hidden" && cs.display !== "none",
      enabled: !disabledOf(src, roleOf(src)),
      checked: src.checked === true ||
        el.getAttribute("aria-checked") === "true",
    };
  }

  Object.assign(P, { info, inputState, replied, watchAround, stillThenReplied, focusedInfo, aim,
                    commonTarget, state, drawnAnew, sameSpot });
})();
