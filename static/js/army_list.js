// The army-list editor (templates/kingdoms/army_edit.html): rows are added as the player goes
// (no save needed), a unit's character fields show only for a character, and the running total
// with what is wrong is asked of the server (POST armies/<id>/list/check/, which saves nothing)
// while the player writes: the rules stay written once, on the server. Without JavaScript the
// page still works: save or keep a draft, and the answer comes with the page.
(function () {
  "use strict";
  var form = document.getElementById("army-list");
  if (!form) {
    return;
  }

  function characterFields(row) {
    var category = row.querySelector("select[name$='-category']");
    var fields = row.querySelector(".character-fields");
    if (!category || !fields) {
      return;
    }
    function show() {
      fields.hidden = category.value !== "character";
    }
    category.addEventListener("change", show);
    show();
  }

  document.querySelectorAll(".unit-row").forEach(characterFields);

  document.querySelectorAll("button[data-add-row]").forEach(function (button) {
    button.addEventListener("click", function () {
      var prefix = button.getAttribute("data-add-row");
      var total = form.querySelector("input[name='" + prefix + "-TOTAL_FORMS']");
      var template = document.getElementById(prefix + "-template");
      var index = Number(total.value);
      var holder = document.createElement("div");
      holder.innerHTML = template.innerHTML.replace(/__prefix__/g, String(index));
      var row = holder.firstElementChild;
      document.getElementById(prefix).appendChild(row);
      total.value = String(index + 1);
      characterFields(row);
      var first = row.querySelector("input[type=text]");
      if (first) {
        first.focus();
      }
    });
  });

  var totalNode = document.getElementById("list-total");
  var okNode = document.getElementById("list-ok");
  var wrongNode = document.getElementById("list-wrong");
  var problemsNode = document.getElementById("list-problems");
  var timer = null;
  var asked = 0;

  function show(answer) {
    totalNode.textContent = String(answer.total);
    okNode.hidden = !answer.valid;
    wrongNode.hidden = answer.valid;
    while (problemsNode.firstChild) {
      problemsNode.removeChild(problemsNode.firstChild);
    }
    answer.problems.forEach(function (text) {
      var item = document.createElement("li");
      item.textContent = text;
      problemsNode.appendChild(item);
    });
  }

  function check() {
    var mine = ++asked;
    fetch(form.getAttribute("data-check-url"), {
      method: "POST",
      body: new FormData(form),
      credentials: "same-origin",
      headers: { "X-Requested-With": "fetch" }
    })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (answer) {
        if (answer && mine === asked) {
          show(answer); // only the latest question's answer: an older one may arrive late
        }
      })
      .catch(function () {
        // Offline or the server busy: the page keeps the last answer; saving still checks.
      });
  }

  function later() {
    window.clearTimeout(timer);
    timer = window.setTimeout(check, 300);
  }

  form.addEventListener("input", later);
  form.addEventListener("change", later);
})();
