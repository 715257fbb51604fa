(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("validation-data").textContent);
  var items = data.items;
  var bestOfK = data.task === "best-of-k";
  var storageKey = "textattack-semparse/validation/" + data.item_set;
  var SAME_MEANING_KEYS = { s: "same", d: "different", u: "unsure" };
  var NAMES = { same: "Same meaning", different: "Different meaning", unsure: "Not sure", none: "None keeps the meaning" };
  var state = load();

  function byId(id) { return document.getElementById(id); }

  function load() {
    try {
      var saved = JSON.parse(window.localStorage.getItem(storageKey) || "null");
      if (saved && typeof saved === "object" && saved.labels && typeof saved.labels === "object") {
        var position = Math.min(Math.max(parseInt(saved.position, 10) || 0, 0), items.length);
        return { annotator: String(saved.annotator || ""), labels: saved.labels, position: position };
      }
    } catch (error) {
      // an unreadable entry: start afresh
    }
    return { annotator: "", labels: {}, position: 0 };
  }

  function save() { window.localStorage.setItem(storageKey, JSON.stringify(state)); }

  function judged() {
    return items.filter(function (item) { return Object.prototype.hasOwnProperty.call(state.labels, item.item_id); }).length;
  }

  function fileName() { return "judgments-" + (state.annotator.replace(/[^A-Za-z0-9._-]+/g, "_") || "annotator") + ".csv"; }

  function describe(item, label) {
    if (!bestOfK || label === "none") { return NAMES[label] || label; }
    var candidate = item.candidates.filter(function (each) { return each.candidate_id === label; })[0];
    return "candidate " + label + (candidate ? " (" + candidate.rewrite + ")" : "");
  }

  function render() {
    var named = state.annotator !== "";
    byId("who").hidden = named;
    byId("task").hidden = !named;
    byId("annotator-name").textContent = state.annotator;
    byId("progress").textContent = judged() + " of " + items.length + " judged";
    var download = byId("download");
    download.disabled = !named || judged() === 0;
    download.textContent = "Download " + fileName();
    if (!named) { byId("annotator").focus(); return; }
    var done = state.position >= items.length;
    byId("item").hidden = done;
    byId("done").hidden = !done;
    if (done) { return; }
    var item = items[state.position];
    var label = state.labels[item.item_id];
    byId("position").textContent = "Item " + (state.position + 1) + " of " + items.length;
    byId("original").textContent = item.original;
    if (bestOfK) {
      var list = byId("candidates");
      list.textContent = "";
      item.candidates.forEach(function (candidate, index) {
        var entry = document.createElement("li");
        entry.setAttribute("data-label", candidate.candidate_id);
        var key = document.createElement("kbd");
        key.textContent = index < 9 ? String(index + 1) : (index === 9 ? "0" : candidate.candidate_id);
        entry.appendChild(key);
        entry.appendChild(document.createTextNode(" " + candidate.rewrite));
        entry.addEventListener("click", function () { choose(candidate.candidate_id); });
        list.appendChild(entry);
      });
    } else {
      byId("rewrite").textContent = item.rewrite;
    }
    Array.prototype.forEach.call(document.querySelectorAll("#item [data-label]"), function (element) {
      element.classList.toggle("chosen", element.getAttribute("data-label") === label);
    });
    byId("answer").textContent = label === undefined ? "Not judged yet" : "Your answer: " + describe(item, label);
    byId("back").disabled = state.position === 0;
  }

  function choose(label) {
    var item = items[state.position];
    if (!item) { return; }
    state.labels[item.item_id] = label;
    state.position = Math.min(state.position + 1, items.length);
    save();
    render();
  }

  function back() {
    if (state.position > 0) {
      state.position -= 1;
      save();
      render();
    }
  }

  function csvField(value) {
    var text = String(value);
    return /[",\r\n]/.test(text) ? "\"" + text.replace(/"/g, "\"\"") + "\"" : text;
  }

  function downloadJudgments() {
    var lines = ["item_id,annotator,label"];
    items.forEach(function (item) {
      if (Object.prototype.hasOwnProperty.call(state.labels, item.item_id)) {
        lines.push([item.item_id, state.annotator, state.labels[item.item_id]].map(csvField).join(","));
      }
    });
    var blob = new Blob([lines.join("\n") + "\n"], { type: "text/csv;charset=utf-8" });
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = fileName();
    document.body.appendChild(link);
    link.click();
    document.body.removeChild(link);
    window.setTimeout(function () { URL.revokeObjectURL(link.href); }, 1000);
  }

  function candidateOfKey(key) {
    if (!/^[0-9]$/.test(key)) { return null; }
    var index = key === "0" ? 9 : parseInt(key, 10) - 1;
    var item = items[state.position];
    return item && item.candidates[index] ? item.candidates[index].candidate_id : null;
  }

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey || state.annotator === "") { return; }
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) { return; }
    var key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (key === "b" || key === "Backspace") {
      event.preventDefault();
      back();
      return;
    }
    var label = bestOfK ? (key === "n" ? "none" : candidateOfKey(key)) : SAME_MEANING_KEYS[key];
    if (label) {
      event.preventDefault();
      choose(label);
    }
  });

  byId("who").addEventListener("submit", function (event) {
    event.preventDefault();
    var name = byId("annotator").value.trim();
    if (name) {
      state.annotator = name;
      byId("annotator").blur();  // the keys now label items
      save();
      render();
    }
  });
  byId("rename").addEventListener("click", function () {
    byId("annotator").value = state.annotator;
    state.annotator = "";
    render();
  });
  Array.prototype.forEach.call(document.querySelectorAll(".choices [data-label]"), function (button) {
    button.addEventListener("click", function () { choose(button.getAttribute("data-label")); });
  });
  byId("back").addEventListener("click", back);
  byId("download").addEventListener("click", downloadJudgments);
  render();
})();
