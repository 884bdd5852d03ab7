// what a person did on the page goes to the bench server's record of this run
const RUN = new URLSearchParams(location.search).get("run") || "";
function rec(event) {
  // the tab says whether it was in front: an agent tab of the extension stays hidden
  const seen = Object.assign({}, event, {visibility: document.visibilityState});
  fetch("/record?run=" + encodeURIComponent(RUN), {method: "POST", body: JSON.stringify(seen)});
}
