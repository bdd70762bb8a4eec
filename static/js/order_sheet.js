// The order sheet (templates/orders/order_sheet.html): each army row shows only the fields its
// order uses, the Forced March's second step offers only the provinces the rules allow from the
// first, and every drafted order is drawn on the map beside the sheet as an arrow. The legal
// targets come from the server (rulebook/turn/write_orders/targets.py, the sheet check itself) as JSON data;
// the server's check stays the authority. Without JavaScript every field shows and the server
// ignores the ones an order does not use. A static file: the CSP allows no inline script.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  var dataNode = document.getElementById("sheet-targets");
  var targets = dataNode ? JSON.parse(dataNode.textContent) : { armies: {} };
  var svg = document.querySelector("#sheet-map svg");
  var layer = null;
  var STYLES = {
    move: { colour: "#7a3b12", dash: "" },
    march: { colour: "#1f5fa8", dash: "10 6" },
    support: { colour: "#2e7d32", dash: "3 5" }
  };

  function setUpLayer() {
    if (!svg) {
      return;
    }
    var defs = document.createElementNS(SVG, "defs");
    Object.keys(STYLES).forEach(function (name) {
      var marker = document.createElementNS(SVG, "marker");
      marker.setAttribute("id", "arrowhead-" + name);
      marker.setAttribute("viewBox", "0 0 10 10");
      marker.setAttribute("refX", "8");
      marker.setAttribute("refY", "5");
      marker.setAttribute("markerWidth", "5");
      marker.setAttribute("markerHeight", "5");
      marker.setAttribute("orient", "auto-start-reverse");
      var head = document.createElementNS(SVG, "path");
      head.setAttribute("d", "M 0 0 L 10 5 L 0 10 z");
      head.setAttribute("fill", STYLES[name].colour);
      marker.appendChild(head);
      defs.appendChild(marker);
    });
    svg.appendChild(defs);
    layer = document.createElementNS(SVG, "g");
    layer.setAttribute("id", "order-arrows");
    layer.setAttribute("aria-hidden", "true");
    svg.appendChild(layer);
  }

  function centre(number) {
    var rect = svg && svg.querySelector("#province-" + number + " rect.terrain");
    if (!rect) {
      return null;
    }
    var x = parseFloat(rect.getAttribute("x"));
    var y = parseFloat(rect.getAttribute("y"));
    return { x: x + parseFloat(rect.getAttribute("width")) / 2, y: y + parseFloat(rect.getAttribute("height")) / 2 };
  }

  // An arrow through the given provinces, stopping short of the last centre so its head shows.
  function arrow(army, kind, numbers) {
    var points = numbers.map(centre);
    if (points.some(function (p) { return p === null; }) || points.length < 2) {
      return;
    }
    var last = points[points.length - 1];
    var before = points[points.length - 2];
    var dx = last.x - before.x;
    var dy = last.y - before.y;
    var length = Math.sqrt(dx * dx + dy * dy) || 1;
    var trim = Math.min(22, length / 3);
    points[points.length - 1] = { x: last.x - (dx / length) * trim, y: last.y - (dy / length) * trim };
    var line = document.createElementNS(SVG, "polyline");
    line.setAttribute("points", points.map(function (p) { return p.x + "," + p.y; }).join(" "));
    line.setAttribute("fill", "none");
    line.setAttribute("stroke", STYLES[kind].colour);
    line.setAttribute("stroke-width", "5");
    line.setAttribute("stroke-linecap", "round");
    if (STYLES[kind].dash) {
      line.setAttribute("stroke-dasharray", STYLES[kind].dash);
    }
    line.setAttribute("marker-end", "url(#arrowhead-" + kind + ")");
    line.setAttribute("class", "order-arrow arrow-" + kind);
    line.setAttribute("data-army", army);
    line.setAttribute("data-provinces", numbers.join(" "));
    layer.appendChild(line);
  }

  function rowParts(row) {
    function field(name) {
      return row.querySelector("select[name$='-" + name + "']");
    }
    return {
      army: row.getAttribute("data-army-id"),
      kind: field("kind"),
      target: field("target"),
      support: field("support"),
      path1: field("path_1"),
      path2: field("path_2"),
      alsoSupport: row.querySelector("input.also-support")
    };
  }

  function showIf(row, selector, shown) {
    row.querySelectorAll(selector).forEach(function (el) {
      el.style.display = shown ? "" : "none";
    });
  }

  // The second step of a Forced March: only the provinces the rules allow from the chosen first.
  function narrowSecondStep(parts, allOptions, keep) {
    var legal = (targets.armies[parts.army] || { march: {} }).march[parts.path1.value] || [];
    var current = parts.path2.value;
    parts.path2.innerHTML = "";
    allOptions.forEach(function (option) {
      var value = option.value;
      if (value === "" || legal.indexOf(Number(value)) !== -1 || (keep && value === current)) {
        parts.path2.appendChild(option.cloneNode(true));
      }
    });
    parts.path2.value = Array.prototype.some.call(parts.path2.options, function (o) { return o.value === current; })
      ? current
      : "";
  }

  function draw(rows) {
    if (!layer) {
      return;
    }
    while (layer.firstChild) {
      layer.removeChild(layer.firstChild);
    }
    rows.forEach(function (parts) {
      var here = (targets.armies[parts.army] || {}).province;
      var k = parts.kind.value;
      if (!here) {
        return;
      }
      if ((k === "move" || k === "raze-move") && parts.target.value) {
        arrow(parts.army, "move", [here, parts.target.value]);
      }
      if (k === "forced-march" && parts.path1.value) {
        arrow(parts.army, "march", parts.path2.value ? [here, parts.path1.value, parts.path2.value] : [here, parts.path1.value]);
      }
      if ((k === "support" || k === "move" || k === "forced-march") && parts.support.value) {
        arrow(parts.army, "support", [here, parts.support.value]);
      }
    });
  }

  setUpLayer();
  var rows = [];
  document.querySelectorAll("tr.army-row").forEach(function (row) {
    var parts = rowParts(row);
    if (!parts.kind) {
      return;
    }
    rows.push(parts);
    var allSeconds = parts.path2 ? Array.prototype.map.call(parts.path2.options, function (o) { return o.cloneNode(true); }) : [];

    function show() {
      var k = parts.kind.value;
      // Move and / or Support (4. Write Orders): a Forced March is a Move, and may support too (decision 588).
      var moving = k === "move" || k === "forced-march";
      var alsoSupport = moving && parts.alsoSupport && parts.alsoSupport.checked;
      showIf(row, ".t-move", k === "move" || k === "raze-move");
      showIf(row, ".t-also-support", moving);
      var supportShown = k === "support" || alsoSupport;
      showIf(row, ".t-support", supportShown);
      if (!supportShown && parts.support) {
        parts.support.value = ""; // a hidden battle is never supported by mistake
      }
      showIf(row, ".t-fm", k === "forced-march");
      draw(rows);
    }

    parts.kind.addEventListener("change", show);
    if (parts.alsoSupport) {
      parts.alsoSupport.addEventListener("change", show);
    }
    [parts.target, parts.support, parts.path2].forEach(function (select) {
      if (select) {
        select.addEventListener("change", function () { draw(rows); });
      }
    });
    if (parts.path1 && parts.path2) {
      parts.path1.addEventListener("change", function () {
        narrowSecondStep(parts, allSeconds, false);
        draw(rows);
      });
      narrowSecondStep(parts, allSeconds, true);
    }
    show();
  });

  // Spending Experience: the "For" list shows only the chosen army's units and characters (each
  // army's are an optgroup named after it); a unit of another army chosen before is cleared.
  document.querySelectorAll("tr.purchase-row").forEach(function (row) {
    var army = row.querySelector('select[name$="-army"]');
    var unit = row.querySelector('select[name$="-unit"]');
    if (!army || !unit) {
      return;
    }
    function narrow() {
      var chosen = army.selectedIndex > 0 ? army.options[army.selectedIndex].text : null;
      unit.querySelectorAll("optgroup").forEach(function (group) {
        var shown = chosen === null || group.label === chosen;
        group.hidden = !shown;
        group.disabled = !shown;
      });
      var selected = unit.options[unit.selectedIndex];
      if (selected && selected.parentElement.tagName === "OPTGROUP" && selected.parentElement.disabled) {
        unit.value = "";
      }
    }
    army.addEventListener("change", narrow);
    narrow();
  });

  // Zoom: the map grows inside its scrolling frame (a phone pinches the page as well).
  var frame = document.getElementById("sheet-map");
  var zoom = 1;
  document.querySelectorAll("button[data-zoom]").forEach(function (button) {
    button.addEventListener("click", function () {
      zoom = button.getAttribute("data-zoom") === "in" ? Math.min(zoom * 1.5, 5) : Math.max(zoom / 1.5, 1);
      frame.style.setProperty("--zoom", String(zoom));
    });
  });
})();
