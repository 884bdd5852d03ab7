// The page helper: the words markup says things in (class tokens, icon names, file names),
// as a hint gives them (page_hints.js): no layout, build hash, size or version; and the
// words an element shows, read apart.
(() => {
  if (globalThis.__ts) return;
  const P = globalThis.__tsParts;
  const { clean } = P;

  // class tokens and words in them that say nothing of what an element does
  const NOISE = new Set(("icon icons ico btn button action actions item link clickable " +
    "pointer active disabled selected hover focus open show hidden visible inline block " +
    "flex grid row col small large sm md lg xl xs left right top bottom center primary " +
    "secondary tertiary default light dark outline outlined filled fill line stroke round " +
    "rounded sharp solid regular duotone thin fa fas far fab fal fad bi mdi glyphicon " +
    "material ion svg img image wrapper container inner outer control controls tool tools " +
    "ripple js ui symbols relative absolute fixed sticky static clearfix pull invisible " +
    "notranslate horizontal vertical " +
    "truncate uppercase lowercase bold italic underline content wrap box root base sprite " +
    "sprites bg background lucide octicon feather tabler iconify ti ph ri bx bxs la las " +
    "lar lab danger success warning info muted ghost plain neutral accent subtle " +
    "contained elevated tonal " +
    // a utility class's look alone (Tailwind's)
    "border shadow ring transition transform grow shrink antialiased capitalize " +
    "select-none select-text select-auto pointer-events-none pointer-events-auto " +
    "touch-none touch-manipulation whitespace-nowrap break-words break-all " +
    "material-icons material-symbols-outlined material-symbols-rounded " +
    // what hides an element from sight but not from screen readers says nothing of it
    "sr-only sr-only-focusable visually-hidden visuallyhidden screen-reader-text " +
    "screen-reader-only a11y-hidden offscreen assistive-text " +
    // a count's or a tag's look, not what its element does
    "badge counter pill chip " +
    // what a framework marks every component with once it runs (Stencil's, Ionic's)
    "hydrated " +
    // what a widget kit calls its boxes (Chosen's `chosen-single`, `chosen-multi`)
    "chosen single multi " +
    // whether its words can be selected as text (Quasar's `non-selectable`)
    "non selectable unselectable noselect").split(" "));
  // an icon set's prefix: what follows it is the icon's name (`ti-trash`, `ic_share_24px`)
  const ICON_SET = new RegExp("^(?:fa[srbld]?|bi|mdi|ion|ti|ph|pi|la[srb]?|ri|bx[sl]?|gg|icon|" +
    "ico|ic|glyphicon|feather|lucide|octicon|tabler|uil|codicon|fi|lni|typcn|wi|oi)(?:-+|_)");
  const AFFIX = new RegExp(ICON_SET.source + "|^(?:btn|js|i)-|[-_](?:icon|ico|btn|button)$",
                           "g");

  // "thumb_up", "deleteButton", "icon-trash", "trash-can.8f3a2b1c", "ic_share_24px",
  // "bi-cart3" -> "thumb up", "delete", "trash", "trash can", "share", "cart": no build
  // hash, size, version or number. A side (`arrow-left`, Blueprint's `align-center`) says
  // which way beside a word that says something; alone (`pull-left`, FAST's `horizontal`
  // slider) it is layout.
  const SIDES = new Set(["left", "right", "top", "bottom", "center", "horizontal", "vertical"]);
  function hintWords(s) {
    const w = String(s).replace(AFFIX, "").replace(/([a-z])([A-Z])/g, "$1 $2")
      .split(/[\s_\-.]+/).map((x) => x.toLowerCase().replace(/^([a-z]{3,})\d+$/, "$1"))
      .filter((x) => x && !/^\d|^v\d+$|\d\D+\d|^[0-9a-f]{8,}$/.test(x));
    const sides = w.some((x) => !NOISE.has(x));
    return clean(w.filter((x) => !NOISE.has(x) || (sides && SIDES.has(x))).join(" "))
      .slice(0, 60);
  }

  // An icon's name in an icon set's class (`ri-external-link-line`, `bi-info-circle-fill`,
  // `fa-bold`, `lucide-trash-2`) as words, all of them (`link`, `info` and `bold` are no
  // layout there), less the style or size it is drawn in at its end; "" for a class that
  // only styles an icon (`fa-solid`, `fa-spin`, `fa-2x`, Phosphor's weight `ph-bold`)
  const DRAWN_AS = new Set(("fill filled line outline outlined solid regular light thin " +
    "duotone twotone sharp round rounded alt o brands fw xs sm lg xl").split(" "));
  const TWEAKS = new RegExp("^(?:\\d+x|spin|pulse|beat|fade|flip|shake|bounce|border|inverse|" +
    "stack|li|ul|(?:rotate|flip|pull)-\\w+)$");
  const SET_WORDS = new Set(("icon icons ico svg tabler lucide octicon feather iconify " +
    "material symbols").split(" "));
  function iconName(tok) {
    const rest = tok.replace(ICON_SET, "").toLowerCase();
    if (TWEAKS.test(rest) || DRAWN_AS.has(rest) || (rest === "bold" && tok.startsWith("ph-")))
      return "";
    const w = rest.split(/[-_]+/).map((x) => x.replace(/^([a-z]{3,})\d+$/, "$1"))
      .filter((x) => x && !/^\d/.test(x) && !SET_WORDS.has(x));
    while (w.length > 1 && DRAWN_AS.has(w[w.length - 1])) w.pop();
    return clean(w.join(" ")).slice(0, 60);
  }

  // An image's file name as words ("/img/trash-can.8f3a2b1c.svg" -> "trash can"); "" for
  // none, a data: URL, or a name of no words (a hash)
  function fileWords(url) {
    if (!url || url.startsWith("data:")) return "";
    return hintWords(url.split(/[?#]/)[0].split("/").pop().replace(/\.\w+$/, ""));
  }

  // Whether an icon's label stands beside words that name what holds it (Ant Design labels
  // each icon by its file name: a button "right Danger zone", an option "Jiangsu right", a
  // column header "Age caret-up caret-down"): then no part of that name. Words within three
  // boxes up, short of a control or a box with a role; an icon alone still names by it.
  const ICON_LABEL = /^[a-z]+(?:-[a-z]+){0,3}$/, LETTER = /\p{L}/u;
  function iconBeside(el, label) {
    if (el.getAttribute("role") !== "img" || !ICON_LABEL.test(label.trim()) ||
        LETTER.test(el.textContent)) return false;
    for (let n = el.parentElement, up = 0; n && up < 3; n = n.parentElement, up++) {
      if (LETTER.test(n.textContent)) return true;
      if (n.matches(P.CONTROLS) || n.hasAttribute("role")) return false;
    }
    return false;
  }

  // The words an element shows, a text node's apart from the next (a title and the label
  // chip a margin parts from it, which innerText glues)
  const shownText = (el) => ((w) => {
    let out = "";
    for (let t = w.nextNode(); t; t = w.nextNode())
      if (t.parentElement.checkVisibility()) out += t.data + " ";
    return out;
  })(document.createTreeWalker(el, NodeFilter.SHOW_TEXT));

  Object.assign(P, { NOISE, ICON_SET, hintWords, iconName, fileWords, iconBeside, shownText });
})();
