// what a person did on the page goes to the bench server's record of this run
const RUN = new URLSearchParams(location.search).get("run") || "";
function rec(event) {
  fetch("/record?run=" + encodeURIComponent(RUN), {method: "POST", body: JSON.stringify(event)});
}
