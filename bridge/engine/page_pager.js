// The page helper: what a wordless control's place in a pager says of it. A pager lays its
// page numbers in a row, and at either end of them the controls that step through the
// pages, which many draw as bare chevrons (Mantine's, Chakra's, a shop's own): the one
// nearest the numbers on the left is "previous page", one beyond it "first page"; on the
// right "next page", then "last page".
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { HAS_WORD, clean } = P;

  const NUMBERED = /^\d{1,6}$/, LOOK = 40;
  function pagerHint(el) {
    if (HAS_WORD.test(el.textContent || "")) return "";
    // each control may sit in a list item of its own
    let item = el, row = el.parentElement;
    if (row && row.childElementCount === 1) [item, row] = [row, row.parentElement];
    if (!row || row.childElementCount > LOOK) return "";
    const kids = [...row.children];
    const at = kids.indexOf(item);
    const pages = [];  // [place, number], in the row's order
    kids.forEach((k, i) => {
      const t = clean(k.textContent || "");
      if (NUMBERED.test(t)) pages.push([i, Number(t)]);
    });
    // two numbers or more, rising (a gap drawn as "…" between them is no number)
    if (pages.length < 2 || pages.some(([, n], i) => i && n <= pages[i - 1][1])) return "";
    const [first, last] = [pages[0][0], pages[pages.length - 1][0]];
    // the wordless steps between it and the numbers: none, it is the nearest; one, the end
    const steps = (from, to) => kids.slice(from, to)
      .filter((k) => !HAS_WORD.test(k.textContent || "")).length;
    const [near, far, between] = at < first ? ["previous page", "first page", steps(at + 1, first)]
      : at > last ? ["next page", "last page", steps(last + 1, at)] : ["", "", -1];
    return between === 0 ? near : between === 1 ? far : "";
  }

  Object.assign(P, { pagerHint });
})();
