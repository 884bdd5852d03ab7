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
    const wordless = (i) => !HAS_WORD.test(kids[i].textContent || "");
    if (at < first) {
      const between = kids.slice(at + 1, first).filter((_, i) => wordless(at + 1 + i)).length;
      return between === 0 ? "previous page" : between === 1 ? "first page" : "";
    }
    if (at > last) {
      const between = kids.slice(last + 1, at).filter((_, i) => wordless(last + 1 + i)).length;
      return between === 0 ? "next page" : between === 1 ? "last page" : "";
    }
    return "";
  }

  Object.assign(P, { pagerHint });
})();
