// The page helper: what an action did to the items of the page's lists, read from the
// changes the action made (page_watch.js): the items it added, took out or put in another
// order, and the words of the page's boxes as they were.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { HAS_WORD } = P;

  // (an element's text nodes apart, as its boxes part them: "Pro" "$29/month", even detached;
  // `shown`: not a script's or a style's, whose strings may say what a box said)
  const textIn = (n, shown = false) => n.nodeType === 3 ? n.data : n.nodeType !== 1 ? "" :
    ((w) => {
      let out = "";
      for (let t = w.nextNode(); t; t = w.nextNode())
        if (!shown || !P.SKIP_TAGS.has(t.parentElement.tagName)) out += t.data + " ";
      return out;
    })(document.createTreeWalker(n, NodeFilter.SHOW_TEXT));
  // (its words but its controls', even detached: "Adults 1", not "Increase adults")
  const ownWords = (n) => ((w) => {
    let out = "";
    for (let t = w.nextNode(); t; t = w.nextNode())
      if (!t.parentElement.closest(P.CONTROLS)) out += t.data + " ";
    return P.clean(out);
  })(document.createTreeWalker(n, NodeFilter.SHOW_TEXT));
  // How many items the action added to lists or tables (a Load more's results, a cart's
  // line): items that came where the list lost none (not one drawn anew: a page of a pager,
  // a filter), from nowhere else in the page, that show, in no popup (a dropdown's options)
  // nor live region (a chat's log says its own)
  const ITEMS = "li, tr, article, [role=row], [role=listitem], [role=article]";
  // (or a box like two or more its box held already: a grid's cards, divs of one class)
  const ALIKE_MIN = 2;
  const addedIn = (list) =>
    new Set(list.flatMap((r) => r.type === "childList" ? [...r.addedNodes] : []));
  function alikeItem(n, added, shownOnly = false) {
    const box = n.parentElement, cls = P.firstClass(n);
    if (!box || !cls || box === document.body) return false;
    let like = 0;
    for (const c of box.children) {
      if (c !== n && !added.has(c) && c.tagName === n.tagName && P.firstClass(c) === cls &&
          (!shownOnly || P.shows(c)) && ++like >= ALIKE_MIN) return true;
    }
    return false;
  }
  function itemsAdded(list, came) {
    const lostSome = new Set(), left = new Set();
    for (const r of list) {
      if (r.type !== "childList") continue;
      for (const n of r.removedNodes) left.add(n);
      // (not one put back: DataTables' redraw takes its rows out and puts them in again)
      if ([...r.removedNodes].some((n) => !n.isConnected && HAS_WORD.test(textIn(n))))
        lostSome.add(r.target);
    }
    const added = [];
    for (const r of list) {
      if (r.type !== "childList" || lostSome.has(r.target)) continue;
      for (const n of r.addedNodes) {  // (not one moved from elsewhere: a card dragged)
        if (n.nodeType === 1 && !left.has(n) && n.isConnected &&
            (n.matches(ITEMS) || alikeItem(n, came)) && P.shows(n) && !n.closest(P.POPUPS) &&
            !n.closest(P.LIVE)) added.push(n);
      }
    }
    // (one or two named, as those taken out are: a table's row a chevron expanded)
    addedWords = added.length <= GONE_SAID ? added.map((n) => P.cut(ownWords(n), 60)[0]) : [];
    if (addedWords.some((w) => !w)) addedWords = [];
    return added.length;
  }
  let addedWords = [];
  // How many items the action took out of a list, and how many others it put in their
  // place (a page of a pager for another, a filter's results drawn anew): items of a list's
  // kind (rows, list items, options), or boxes of one class in a box holding more of them,
  // told apart by their words (one drawn anew as it was is neither); not those moved (a
  // sort's), nor a placeholder, nor what a live region let go (toasts that went)
  const LISTS = "ul, ol, table, tbody, [role=list], [role=listbox], [role=grid], [role=menu]";
  let put = 0;
  const STAND_INS = /(?:^|[\s_-])(?:placeholder|skeleton|loading|empty)(?:$|[\s_-])/i;
  const STAND_WORDS = new RegExp("^(?:loading|searching|fetching|please wait|nothing|" +
    "no (?:results?|matches|data|items))\\b|(?:…|\\.\\.\\.)$", "i");
  const standsIn = (n) => STAND_INS.test(n.getAttribute("class") || "") ||
    STAND_WORDS.test(P.clean(textIn(n)));
  function itemsRemoved(list, came) {
    const byBox = new Map();  // box -> [items out, items in]
    const left = new Set(list.flatMap((r) => r.type === "childList" ? [...r.removedNodes] : []));
    for (const r of list) {
      if (r.type !== "childList" || !r.target.isConnected || r.target.closest(P.LIVE)) continue;
      const [out, into] = byBox.get(r.target) || [[], []];
      for (const n of r.removedNodes)  // (not a placeholder that went as a choice came)
        if (n.nodeType === 1 && !n.isConnected && !came.has(n) &&
            !STAND_INS.test(n.getAttribute("class") || "")) out.push(n);
      for (const n of r.addedNodes)
        if (n.nodeType === 1 && n.parentNode === r.target && !left.has(n)) into.push(n);
      byBox.set(r.target, [out, into]);
    }
    let gone = 0;
    goneWords = [];
    putWords = [];
    cameWords = [];
    put = cameFor = 0;
    for (const [box, [out, into]] of byBox) {
      if (!out.length) continue;
      // (rows and list items are alike whatever their class: a table's striped rows)
      const tag = out[0].tagName, cls = P.firstClass(out[0]);
      const alike = [...out, ...into].every((n) => n.tagName === tag &&
        (P.firstClass(n) === cls || n.matches(ITEMS)));
      if (!alike || !(out[0].matches(ITEMS) || box.matches(LISTS) ||
          (cls && [...box.children].some((c) => c.tagName === tag && P.firstClass(c) === cls))))
        continue;
      const fresh = new Map();  // the words of those put in, and how many have them
      for (const n of into) fresh.set(textIn(n), (fresh.get(textIn(n)) || 0) + 1);
      const taken = out.filter((n) => {
        const had = fresh.get(textIn(n)) || 0;
        if (had) fresh.set(textIn(n), had - 1);
        return !had;
      });
      const fresher = into.filter((n) => {  // (those put in, in their order)
        const left = fresh.get(textIn(n)) || 0;
        if (left) fresh.set(textIn(n), left - 1);
        return left > 0;
      });
      // (not a line that stood in for items, a "Loading…", a "No results": those that came
      // in its place are items added; nor such a line that came; nor one item of many whose
      // words changed as the list was drawn anew: a one-item list's item for another is)
      if (!taken.length) {  // (a list drawn anew with one more: Select2's chips)
        cameFor += fresher.length;
        cameWords.push(...fresher.map((n) => P.cut(ownWords(n), 60)[0]));
        continue;
      }
      if (taken.length === 1 && into.length >= out.length &&
          (standsIn(taken[0]) || fresher.some(standsIn) || out.length > 1)) {
        if (out.length === 1 && into.length > 1) cameFor += fresher.length;
        continue;
      }
      gone += taken.length;
      put += fresher.length;
      goneWords.push(...taken.map((n) => P.cut(ownWords(n), 60)[0]));
      putWords.push(...fresher.map((n) => P.cut(ownWords(n), 60)[0]));
    }
    if (goneWords.length !== gone || gone > GONE_SAID || goneWords.some((w) => !w))
      goneWords = [];
    if (putWords.length !== put || put > GONE_SAID || putWords.some((w) => !w)) putWords = [];
    return gone;
  }
  // (the words of one or two put in; items a stand-in or a list drawn anew gave, and theirs)
  let putWords = [], cameFor = 0, cameWords = [];
  // (the words of those, where one or two were taken out and none put in: the event a
  // Delete removed, named)
  const GONE_SAID = 2;
  let goneWords = [];
  // How many rows or items the action put in another order (a sort that moves a table's
  // rows, React's keyed ones; TanStack Table's): moved, each still in the page, two or more
  const SORTED_MIN = 2;
  function itemsMoved(list, came) {
    const left = new Set(list.flatMap((r) => r.type === "childList" ? [...r.removedNodes] : []));
    const moved = [...came].filter((n) => n.nodeType === 1 && left.has(n) &&
      n.isConnected && n.matches(ITEMS) && !n.closest(P.POPUPS) && P.shows(n));
    // (not those put back in the order they stood in: DataTables' redraw of a page)
    const boxes = new Set(moved.map((n) => n.parentNode).filter((b) => !sameOrder(b, list)));
    const count = moved.filter((n) => boxes.has(n.parentNode)).length;
    return count >= SORTED_MIN ? count : 0;
  }
  // Whether the elements a box holds now and held before the changes (`list`, undone last
  // first) stand in the same order.
  function sameOrder(box, list) {
    const now = [...box.childNodes], before = now.slice();
    for (let i = list.length - 1; i >= 0; i--) {
      const r = list[i];
      if (r.type !== "childList" || r.target !== box) continue;
      for (const n of r.addedNodes) {
        const k = before.indexOf(n);
        if (k >= 0) before.splice(k, 1);
      }
      const at = r.previousSibling ? before.indexOf(r.previousSibling) + 1
        : r.nextSibling ? before.indexOf(r.nextSibling) : 0;
      before.splice(Math.max(at, 0), 0, ...r.removedNodes);
    }
    const kept = (a, b) => a.filter((n) => n.nodeType === 1 && b.includes(n));
    const [was, is] = [kept(before, now), kept(now, before)];
    return was.every((n, k) => n === is[k]);
  }

  // The names of the columns the action took out of a table, or put in (a column menu's
  // "Status" unchecked): header cells taken out of a header row still in the page, or put
  // in it, COLUMNS_SAID at most; not one drawn again with its words (a sort's)
  const HEADS = "th, [role=columnheader]", COLUMNS_SAID = 3;
  function columnsChanged(list, came) {
    const out = [], into = [], after = new Map();  // a cell taken out -> the node before it
    for (const r of list) {
      if (r.type !== "childList" || !r.target.isConnected) continue;
      r.removedNodes.forEach((n, k) => {
        if (n.nodeType !== 1 || n.isConnected || came.has(n) || !n.matches(HEADS)) return;
        // (cells taken out last first are said in the order they stood in: before the one
        // that stood after them)
        const next = out.findIndex((m) => m === r.nextSibling || after.get(m) === n);
        out.splice(next >= 0 ? next : out.length, 0, n);
        after.set(n, k ? r.removedNodes[k - 1] : r.previousSibling);
      });
      for (const n of r.addedNodes)
        if (n.nodeType === 1 && n.isConnected && n.matches(HEADS)) into.push(n);
    }
    const words = (nodes) => nodes.map((n) => P.cut(P.clean(textIn(n)), 40)[0]);
    const [was, now] = [words(out), words(into)];
    const apart = (a, b) => a.filter((w, i) => w && a.indexOf(w) === i && !b.includes(w));
    return { columnsWent: apart(was, now).slice(0, COLUMNS_SAID),
             columnsCame: apart(now, was).slice(0, COLUMNS_SAID) };
  }

  // {items: added, addedWords, gone: taken out, goneWords, put: others put in their place,
  // putWords, sorted, columnsWent, columnsCame}
  function itemsChanged(list, added) {
    const gone = itemsRemoved(list, added), items = itemsAdded(list, added);
    const came = cameWords.length === cameFor && !items && cameFor <= GONE_SAID &&
      cameWords.every(Boolean) ? cameWords : [];
    return { items: items + cameFor, addedWords: cameFor ? came : addedWords, gone, goneWords,
             put, putWords, sorted: itemsMoved(list, added), ...columnsChanged(list, added) };
  }

  // The list a menu button an action expanded (`shut`: it said it was collapsed as the
  // action began) controls, where that holds plain items (Vuetify's menu of a `role=list`,
  // `aria-controls` naming it): {role, name, items} for the report, or null
  const OWN_ITEMS = "[role=listitem], [role=menuitem], [role=option], li";
  function ownList(b, shut) {
    const popup = b && b.isConnected && shut && b.getAttribute("aria-expanded") === "true" &&
      /^(?:true|menu|listbox)$/.test(b.getAttribute("aria-haspopup"));
    const id = popup &&
      (b.getAttribute("aria-controls") || b.getAttribute("aria-owns") || "").split(" ")[0];
    const by = id && b.getRootNode().getElementById ? b.getRootNode().getElementById(id) : null;
    // (a menu or listbox of ARIA's is said as the page's lists of options are)
    const aria = "[role=menu], [role=listbox]";
    const list = by && !by.matches(aria) && !by.querySelector(aria) &&
      (by.querySelector("[role=list], ul, ol") || by);
    const items = list && P.shows(list) ? [...list.querySelectorAll(OWN_ITEMS)].filter(P.shows)
      : [];
    if (!items.length) return null;
    return { role: b.getAttribute("aria-haspopup") === "listbox" ? "listbox" : "menu",
             name: P.nameOf(list, P.roleOf(list)) || "", items: items.length };
  }

  Object.assign(P, { ITEMS, textIn, ownWords, addedIn, alikeItem, itemsChanged, ownList });
})();
