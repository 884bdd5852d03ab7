// The browser's own screen of agent tabs: the sites their policy profile denies, as
// declarativeNetRequest session rules scoped to those tabs, on page and frame loads. Chrome
// checks every request, each redirect hop a new one, before it leaves, with or without a
// debugger attached (the hub computes the rules: bridge/policy/netrules.py). An exception
// is an allow rule of higher priority: what a block regex names but policy does not deny.

const TYPES = ["main_frame", "sub_frame"];
const BLOCK = 1;
const ALLOW = 2;
const tabRules = new Map(); // tabId -> [[priority, regex], ...]

// One rule per (priority, regex), naming every agent tab it guards. Canonical URLs are
// lower-case where policy reads them without case, and a case-sensitive regex is smaller.
function rulesNow() {
  const byRule = new Map();
  for (const [tabId, rules] of tabRules) {
    for (const key of rules.map((r) => JSON.stringify(r))) {
      if (!byRule.has(key)) byRule.set(key, []);
      byRule.get(key).push(tabId);
    }
  }
  return [...byRule].map(([key, tabIds], i) => {
    const [priority, regexFilter] = JSON.parse(key);
    return { id: i + 1, priority, action: { type: priority === ALLOW ? "allow" : "block" },
             condition: { regexFilter, tabIds, resourceTypes: TYPES,
                          isUrlFilterCaseSensitive: true } };
  });
}

// A restarted worker takes back the rules its last run left (session rules outlive it):
// the tabs stay guarded while the hub links again.
const restored = chrome.declarativeNetRequest.getSessionRules().then((rules) => {
  for (const r of rules) {
    for (const tabId of (r.condition && r.condition.tabIds) || []) {
      if (!tabRules.has(tabId)) tabRules.set(tabId, []);
      tabRules.get(tabId).push([r.priority, r.condition.regexFilter]);
    }
  }
}).catch(() => {});
let writing = restored;

// Replace every session rule with those the guarded tabs need now (one call: no moment
// where a tab is unguarded). Calls run one at a time.
function rewrite() {
  writing = writing.catch(() => {}).then(async () => {
    const old = await chrome.declarativeNetRequest.getSessionRules();
    await chrome.declarativeNetRequest.updateSessionRules({
      removeRuleIds: old.map((r) => r.id), addRules: rulesNow() });
  });
  return writing;
}

// The hub guards a tab (or stops guarding it, with no filters); a regex Chrome refuses
// fails the call, and the tab keeps the rules it had.
export async function guard(tabId, filters, exceptions) {
  await restored;
  const id = Number(tabId);
  const list = (a) => (Array.isArray(a) ? a.map(String) : []);
  const rules = [...list(filters).map((f) => [BLOCK, f]),
                 ...list(exceptions).map((e) => [ALLOW, e])];
  for (const [, regex] of rules) {
    const ok = await chrome.declarativeNetRequest.isRegexSupported({
      regex, isCaseSensitive: true });
    if (!ok.isSupported) {
      throw new Error(`the browser cannot use the site rule ${regex} (${ok.reason}); ` +
                      "the tab's rules were not changed");
    }
  }
  const before = tabRules.get(id);
  if (rules.length) tabRules.set(id, rules);
  else tabRules.delete(id);
  try {
    await rewrite();
  } catch (e) {
    if (before) tabRules.set(id, before);
    else tabRules.delete(id);
    throw e;
  }
  return rules.length;
}

// A closed tab needs no rules.
export function unguard(tabId) {
  if (tabRules.delete(Number(tabId))) rewrite().catch(() => {});
}
