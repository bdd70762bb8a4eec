// Only the targets an order uses are shown; without JavaScript all are shown and the server ignores the rest.
document.querySelectorAll("tr.army-row").forEach(function (row) {
  var kind = row.querySelector("select[name$='-kind']");
  function show() {
    var k = kind.value;
    row.querySelector(".t-move").style.display = (k === "move" || k === "raze-move") ? "" : "none";
    row.querySelector(".t-support").style.display = (k === "move" || k === "support") ? "" : "none";
    row.querySelector(".t-fm").style.display = (k === "forced-march") ? "" : "none";
  }
  kind.addEventListener("change", show);
  show();
});
