// This browser's default name for the hub (its brand as one word), shared by worker and popup.

const BRANDS = [["Google Chrome", "chrome"], ["Microsoft Edge", "edge"], ["Brave", "brave"],
  ["Opera", "opera"]];

export function defaultName() {
  const data = navigator.userAgentData;
  if (data && Array.isArray(data.brands) && data.brands.length) {
    const names = data.brands.map((b) => b.brand);
    const hit = BRANDS.find(([brand]) => names.includes(brand));
    return hit ? hit[1] : "chromium";
  }
  const ua = navigator.userAgent;
  if (/\bEdg\//.test(ua)) return "edge";
  if (/\bOPR\//.test(ua)) return "opera";
  return "chromium";
}

// A label the person typed, as the hub accepts it: no control characters, at most 64 long.
export function cleanLabel(value) {
  return typeof value === "string" ? value.replace(/[\x00-\x1f\x7f]/g, "").trim().slice(0, 64) : "";
}
