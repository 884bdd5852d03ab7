// The page helper: what the hub and its policy read of an element (its info: name, value,
// link, form, nearby text; what a click on it activates) and of the page (its text, as
// markdown), and an element's state for waits.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { idOf, get, NAME_FROM_CONTENT, SKIP_TAGS, roleOf, standIn, clean, NAME_MAX, cut,
    hiddenForName, nameOf, fullNameOf, standsApart, breaksLine, isBlock, statesOf, disabledOf,
    valueOf, hintOf, describe, hitTarget, composedParent, activationOf, point, dragItem,
    masked, isControl, clickable, invalidStart, invalidFound, saidStart, saidFound } = P;

  function info(id) {
    const el = get(id);
    if (!el) return null;
    invalidStart();
    saidStart(el);
    const src = standIn(el) || el;
    const role = roleOf(src);
    const dragged = dragItem(el) && !NAME_FROM_CONTENT.has(role);
    // a container with no words but its clickables' (a card that is all one link) may do
    // what they say: judged by all it holds
    const own = isControl(src) ? null : ownWords(src) || null;
    const named = fullNameOf(src, role);  // an unnamed drag handle has no words of its own
    const [name, nameLeft] = cut(dragged ? named || own || "" : named, NAME_MAX);
    return {
      role, name, nameLeft, tag: el.tagName.toLowerCase(),
      hint: hintOf(el, name),
      type: src.type || null, masked: masked(src), editable: !!el.isContentEditable,
      value: valueOf(src, role), checked: src.checked === undefined ? null : src.checked,
      disabled: disabledOf(src, role), connected: el.isConnected,
      states: statesOf(src, role),
      autocomplete: src.getAttribute ? src.getAttribute("autocomplete") : null,
      field: src.getAttribute ? [src.getAttribute("name"), src.id].filter(Boolean).join(" ") : "",
      href: linkOf(el), frameUrl: window === window.top ? "" : location.href,
      form: formOf(src), box: boxOf(el), text: own === null ? shownText(src) : own,
      near: nearText(src),
    };
  }

  // The words on an element that is no control (a list item, a card, a list a page listens
  // on), left of those of the clickables inside it: a click on it, a drag of it or a release
  // beside them runs none of theirs (the delete button a hovered to-do shows is not what
  // a drag of the to-do does). Policy reads these; the clickables are judged on their own
  // when a click reaches them. Read up to OWN_CHARS, through OWN_ELEMENTS elements at most.
  const OWN_CHARS = 300, OWN_ELEMENTS = 500;
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
        else { out += " "; walk(c.shadowRoot || c); out += " "; }
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
    if (!el || el === document.body || el === document.documentElement) return null;
    if (el.tagName === "IFRAME" || el.tagName === "FRAME") return { frame: idOf(el) };
    return info(idOf(el));
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

  // The point a click on `id` goes to and, when `secret` is given, what it activates there:
  // `target` (its info, with `id`), or `frame` when the point is inside a child frame.
  function aim(id, secret) {
    const res = point(id);
    if (res.error) return res;
    const el = get(id);
    const hit = hitTarget(el, res.x, res.y);
    const [t, also] = P.clickOf(el, hit, secret);
    if (t && (t.tagName === "IFRAME" || t.tagName === "FRAME")) {
      res.frame = describe(t);
      return res;
    }
    if (t) {
      res.target = info(idOf(t));
      res.target.id = idOf(t);
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

  // All an element holds, for `text @N`: a field's value (a password's stays masked), else
  // its rendered text. Reads only: nothing scrolls, takes focus or changes.
  function fullText(id) {
    const el = get(id);
    if (!el) return null;
    if (el.tagName === "IFRAME" || el.tagName === "FRAME") return { kind: "frame", text: "" };
    const src = standIn(el) || el;
    const role = roleOf(src);
    if (role === "textbox" && (src.isContentEditable || P.codeEditorOf(src)))  // ("lines": in part)
      return { kind: P.editorPartial(src) ? "lines" : "value", text: valueOf(src, role) || "" };
    if (src.tagName === "SELECT") {  // every option, where a snapshot lists the first ones
      return { kind: "options", text: Array.from(src.options, (o) => clean(o.label || o.text) +
        (o.selected ? " [selected]" : "") + (o.disabled || (o.parentNode && o.parentNode.disabled)
          ? " [disabled]" : "")).join("\n") };
    }
    const value = valueOf(src, role);
    if (masked(src)) return { kind: "value", text: value || "" };
    if (value !== null && value !== undefined &&
        (src.tagName === "INPUT" || src.tagName === "TEXTAREA" || src.tagName === "SELECT" ||
         value !== "")) return { kind: "value", text: String(value) };
    return { kind: "text", text: flatText(el) };
  }

  function pageText() {
    return document.body ? P.unfaded(flatText(document.body)) : "";
  }

  // Whether the document's text holds `text` (a wait's poll): in a hidden one, once the
  // page's due timers ran (`secret`: the hook's; page_hits.js `pump`).
  function hasText(text, secret) {
    P.pump(secret);
    return pageText().includes(text);
  }

  // A document's text for `text` (`fmt` "markdown" or "text"): [its URL, the text, 0]; in
  // the top document while timers it armed as it loaded or in reply to input have not run
  // (`secret`: the hook's, hook.js), [its URL, null, how many], for a read once they ran.
  function readText(fmt, secret) {
    P.pump(secret);
    const loading = P.loadTimers(secret);
    const text = loading ? null : fmt === "markdown" ? markdown() : pageText();
    return [location.href, text, loading];
  }

  // The text a person reads in an element, as its innerText, with what innerText leaves
  // out: the space between two boxes of their own in a line whose words touch (inline-block
  // badges: innerText reads "NewSale", a person two words), and what its shadow roots show.
  // A style is read only between two text nodes whose words innerText shows glued together,
  // not for every element of a big page; a space is put there in innerText's text. With a
  // shadow root or a slot inside, the elements on the way to them and to such boxes are read
  // node by node, in the order the page is drawn (a host's shadow tree, a slot's assigned
  // nodes); every other element by its innerText, as it is.
  function flatText(root) {
    const full = root.innerText;  // none for an element that is no HTML element (svg)
    const onWay = new Set();
    const mark = (n) => {
      for (let up = n; up && !onWay.has(up); up = up === root ? null : composedParent(up))
        onWay.add(up);
    };
    const displays = new Map();  // element -> its display, read once
    const displayOf = (el) => {
      let d = displays.get(el);
      if (d === undefined) displays.set(el, (d = getComputedStyle(el).display));
      return d;
    };
    const apart = [];  // the boxes whose words touch another's
    const spaces = [];  // where in `full` a space keeps them apart (-1: not known)
    const roots = [root];
    while (roots.length) {
      const tree = roots.pop();
      // in the root's tree, words innerText shows glued to the ones before; in a shadow tree
      // (innerText shows none of it), words that touch in the DOM
      const aligned = tree === root && full !== undefined;
      const walker = document.createTreeWalker(
        tree, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      let last = null;  // the text node before (aligned: the last innerText shows)
      const at = { shown: full, lower: null, p: 0, start: 0, slack: 0 };
      for (let n = walker.currentNode; n; n = walker.nextNode()) {
        if (n.nodeType === 3) {
          if (SKIP_TAGS.has(n.parentNode.tagName)) continue;
          let glued;  // a letter or digit right after one, across two text nodes
          if (aligned) {
            const was = at.p;
            if (!shownAt(at, n.data)) continue;  // not shown: hidden, or only spaces
            glued = last !== null && at.start === was &&
              WORD_END.test(full.slice(Math.max(0, was - 2), was)) &&
              WORD_START.test(full.slice(was, was + 2));
          } else {
            glued = last !== null && WORD_END.test(last.data) && WORD_START.test(n.data);
          }
          const box = glued ? boxBetween(last, n, displayOf) : null;
          if (box) {
            apart.push(box);
            spaces.push(aligned ? at.start : -1);
          }
          last = n;
          continue;
        }
        if (n.shadowRoot) roots.push(n.shadowRoot);
        if (n.shadowRoot || n.tagName === "SLOT") mark(n);
      }
    }
    if (!onWay.size && !spaces.includes(-1)) {
      if (full === undefined) return root.textContent;
      let text = "";
      let from = 0;
      for (const i of spaces) {
        text += full.slice(from, i) + " ";
        from = i;
      }
      return text + full.slice(from);
    }
    for (const box of apart) mark(composedParent(box));
    const out = [];
    let line = "";
    const push = () => {
      const t = line.replace(/[ \t]+/g, " ").trim();
      if (t) out.push(t);
      line = "";
    };
    function walk(node) {
      if (node.nodeType === 3) { line += node.data.replace(/\s+/g, " "); return; }
      if (node.nodeType !== 1 || SKIP_TAGS.has(node.tagName)) return;
      const cs = getComputedStyle(node);
      if (cs.display === "none") return;
      const block = breaksLine(cs.display) && cs.display !== "table-cell";
      const gap = !block && standsApart(cs.display);  // a cell, a badge: a space around
      if (block) push();
      else if (gap) line += " ";
      if (!onWay.has(node)) {
        const t = cs.visibility === "hidden" ? "" : node.innerText || "";
        const parts = t.split("\n");
        for (let i = 0; i < parts.length; i++) {
          line += parts[i];
          if (i < parts.length - 1) push();
        }
      } else {
        const assigned = node.tagName === "SLOT" ? node.assignedNodes({ flatten: true }) : [];
        const kids = assigned.length ? assigned : (node.shadowRoot || node).childNodes;
        for (const c of kids) walk(c);
      }
      if (block) push();
      else if (gap) line += " ";
    }
    walk(root);
    push();
    return out.join("\n");
  }

  // Two words read as one when glued; punctuation ("link, and") or a price's parts
  // ("$19.99") glued read as they should, and are not looked at.
  const WORD_END = /[\p{L}\p{N}]$/u;
  const WORD_START = /^[\p{L}\p{N}]/u;

  // Where the innerText `at.shown` shows a text node's words, after `at.p`: true, with
  // at.start and at.p their start and end, or false when it does not (a hidden node, one of
  // spaces only). As they are, or with their spaces collapsed, found at once; else read
  // char by char, spaces and case aside (a pre's spaces, a text-transform), where up to
  // SHOWN_SKIP characters innerText shows of no text node (a list's marker) may come first,
  // and as many as the nodes not found since held (a text-transform that changed a word's
  // length): the reading catches up after them.
  const SHOWN_SKIP = 64;
  function shownAt(at, data) {
    const shown = at.shown;
    let t = data.trim();
    if (!t) return false;
    let q = at.p;
    while (q < shown.length && isSpace(shown.charCodeAt(q))) q++;
    if (!shown.startsWith(t, q) && !(SPACES.test(t) && shown.startsWith(
      (t = t.replace(/\s+/g, " ")), q))) return shownLike(at, data);
    at.start = q;
    at.p = q + t.length;
    at.slack = 0;
    return true;
  }

  const SPACES = /\s\s|[\t\n\r\f]/;

  function shownLike(at, data) {
    if (at.lower === null) at.lower = at.shown.toLowerCase();
    const shown = at.lower;
    const text = data.toLowerCase();
    if (shown.length !== at.shown.length) return false;  // its places would not be innerText's
    let i = 0;
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    const first = text[i];
    for (let q = shown.indexOf(first, at.p); q >= 0 && q - at.p <= SHOWN_SKIP + at.slack;
         q = shown.indexOf(first, q + 1)) {
      const end = matchFrom(shown, q, text, i);
      if (end >= 0) {
        at.start = q;
        at.p = end;
        at.slack = 0;
        return true;
      }
    }
    at.slack += text.length;
    return false;
  }

  // The end in `shown` of text[i..] read from shown[q], spaces aside; -1 when it differs.
  function matchFrom(shown, q, text, i) {
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (isSpace(c)) continue;
      while (q < shown.length && isSpace(shown.charCodeAt(q))) q++;
      if (shown.charCodeAt(q) !== c) return -1;
      q++;
    }
    return q;
  }

  const isSpace = (c) => c === 32 || c === 10 || c === 9 || c === 13 || c === 12;

  // Of two text nodes whose words touch, a (before) and b: the box of its own in a line
  // (standsApart) holding one but not the other, when no line break is between them
  // (innerText keeps the words of two blocks, two cells, apart itself); else null.
  function boxBetween(a, b, displayOf) {
    let box = null;
    let n = b.parentNode;
    for (; n && n.nodeType === 1 && !n.contains(a); n = n.parentNode) {
      const d = displayOf(n);
      if (breaksLine(d)) return null;
      if (standsApart(d)) box = n;
    }
    for (let m = a.parentNode; m && m !== n && m.nodeType === 1; m = m.parentNode) {
      const d = displayOf(m);
      if (breaksLine(d)) return null;
      if (standsApart(d)) box = m;
    }
    return box;
  }

  function markdown() {
    const out = [], leaving = P.fadingOut();
    let line = "";
    const push = () => { const t = line.replace(/[ \t]+/g, " ").trim(); if (t) out.push(t); line = ""; };
    function md(node, listDepth) {
      if (node.nodeType === 3) { line += node.data.replace(/\s+/g, " "); return; }
      if (node.nodeType !== 1) return;
      const el = node;
      if (SKIP_TAGS.has(el.tagName) || hiddenForName(el) || leaving.has(el)) return;
      const tag = el.tagName;
      if (/^H[1-6]$/.test(tag)) { push(); line = "#".repeat(+tag[1]) + " " + clean(el.innerText); push(); return; }
      if (tag === "A" && el.hasAttribute("href")) {
        const t = clean(el.innerText);
        if (t) line += "[" + t + "](" + el.href + ")";
        return;
      }
      if (tag === "IMG") { const alt = clean(el.getAttribute("alt")); if (alt) line += "![" + alt + "]"; return; }
      if (tag === "BR") { push(); return; }
      if (tag === "LI") { push(); line = "  ".repeat(Math.max(0, listDepth - 1)) + "- "; }
      if (tag === "PRE") { push(); out.push("```\n" + el.innerText + "\n```"); return; }
      const block = isBlock(el);
      if (block && tag !== "LI") push();
      const nextDepth = tag === "UL" || tag === "OL" ? listDepth + 1 : listDepth;
      const root = el.shadowRoot || el;
      for (let c = root.firstChild; c; c = c.nextSibling) md(c, nextDepth);
      if (tag === "TD" || tag === "TH") line += " | ";
      if (block) push();
    }
    if (document.body) md(document.body, 0);
    push();
    return out.join("\n");
  }

  // What input may have changed on an element (its states and value, as `info` reads them),
  // read right after the input: no box and no text around it, so the page is not laid out
  // for it (after a click that changed the page, that layout was most of the read).
  // `secret`: the hook's (hook.js), to say how many timers the page armed in reply
  function inputState(id, secret) {
    const el = get(id);
    if (!el) return null;
    const src = standIn(el) || el;
    const role = roleOf(src);
    // a button or a link says what it does in its words ("Follow" becomes "Following")
    const named = el.isConnected && NAME_FROM_CONTENT.has(role);
    return {
      states: statesOf(src, role), value: valueOf(src, role),
      checked: src.checked === undefined ? null : src.checked, connected: el.isConnected,
      name: named ? nameOf(src, role) : null, invalid: invalidFound(), said: saidFound(),
      armed: secret ? P.armed(secret)[0] : null,
    };
  }

  // What the page replied to an action beyond its element's state (a key's, with no element
  // read back): the fields it found invalid, and what its live regions said
  function replied() {
    return { invalid: invalidFound(), said: saidFound() };
  }

  // Wait helpers: state of an element by id, for `wait`.
  function state(id) {
    const el = get(id);
    if (!el || !el.isConnected) return { attached: false, visible: false };
    const src = standIn(el) || el;
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

  Object.assign(P, {
    info, inputState, replied, focusedInfo, aim, commonTarget, fullText, pageText, hasText,
    markdown, readText, state,
  });
})();
