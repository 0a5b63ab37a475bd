// The kute playground: evaluates what is typed with kute compiled to WebAssembly
// (crates/kute-wasm, bound by wasm-bindgen into pkg/), and shows the value, the
// print_layout table and the SVG picture. The page's address holds the expression
// (#e=<URL-encoded expression>), so a link to it shows the same answer.

import init, { evaluate, examples, version } from "./pkg/kute_wasm.js";

const $ = (id) => document.getElementById(id);
let downloadUrl = null;

/** The expression in the page's address (#e=... or ?e=...), or null. */
function expressionInAddress() {
  for (const part of [location.hash.slice(1), location.search.slice(1)]) {
    for (const kv of part.split("&")) {
      if (kv.startsWith("e=")) {
        try {
          return decodeURIComponent(kv.slice(2));
        } catch {
          return kv.slice(2);
        }
      }
    }
  }
  return null;
}

/** The address of the page showing `expr`. */
function linkTo(expr) {
  return location.pathname + location.search.replace(/(^\?|&)e=[^&]*/, "") + "#e=" + encodeURIComponent(expr);
}

function show(el, on) {
  el.hidden = !on;
}

/** Evaluate `expr` and show the answer; `remember` puts it in the address. */
function run(expr, remember) {
  const input = $("expr");
  if (input.value !== expr) input.value = expr;
  if (remember) history.replaceState(null, "", linkTo(expr));
  $("share").href = linkTo(expr);

  let r;
  try {
    r = evaluate(expr);
  } catch (e) {
    // kute answers every input with a value or an error; an exception is a bug
    r = { ok: false, result: "", kind: "", error: "internal error (a bug in kute): " + e, pointer: undefined };
  }
  $("status").textContent = "";
  show($("answer"), true);
  show($("result"), r.ok);
  $("result").textContent = r.ok ? r.result : "";
  $("kind").textContent = r.ok ? "(" + r.kind + ")" : "";
  $("answer-title").textContent = r.ok ? "Result" : "Error";
  const err = $("error");
  show(err, !r.ok);
  err.textContent = r.ok ? "" : r.error + (r.pointer ? "\n\n" + r.pointer : "");

  const table = r.ok ? r.table : undefined;
  show($("table-section"), !!table);
  $("table").textContent = table || "";

  const picture = $("picture");
  picture.replaceChildren();
  if (downloadUrl) URL.revokeObjectURL(downloadUrl);
  downloadUrl = null;
  const svg = r.ok ? r.svg : undefined;
  let drawn = false;
  if (svg) {
    const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
    const root = doc.documentElement;
    if (root && root.nodeName === "svg" && !doc.querySelector("parsererror")) {
      picture.appendChild(document.importNode(root, true));
      downloadUrl = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
      $("download").href = downloadUrl;
      drawn = true;
    }
  }
  show($("picture-section"), drawn);

  const notes = [];
  if (r.ok && r.table_note) notes.push("No table: " + r.table_note);
  if (r.ok && r.svg_note) notes.push("No picture: " + r.svg_note);
  if (r.ok && !table && !svg && !r.table_note && !r.svg_note) notes.push("Only layouts, MMAs and copies are drawn.");
  $("notes").textContent = notes.join("\n");
  show($("notes"), notes.length > 0);
  if (typeof r.free === "function") r.free();
}

async function main() {
  try {
    await init();
  } catch (e) {
    const s = $("status");
    s.classList.add("error");
    s.textContent =
      "Could not load the WebAssembly module (" + e + "). " +
      "Browsers load modules only over http: serve this folder, e.g. `python3 -m http.server`, and open it there.";
    return;
  }
  $("version").textContent = "(kute " + version() + ")";
  $("status").textContent = "Ready.";

  const nav = $("examples");
  for (const example of examples()) {
    const x = { title: example.title, expr: example.expr };
    example.free();
    const a = document.createElement("a");
    a.href = linkTo(x.expr);
    a.textContent = x.title;
    a.title = x.expr;
    a.className = "example";
    // a link to the address already shown changes no hash: evaluate it anyway
    a.addEventListener("click", () => {
      if (expressionInAddress() === x.expr) run(x.expr, false);
    });
    nav.appendChild(a);
  }

  $("form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    run($("expr").value, true);
  });
  // an example link, a link typed into the address bar, back and forward
  window.addEventListener("hashchange", () => {
    const e = expressionInAddress();
    if (e !== null) run(e, false);
  });
  $("go").disabled = false;

  const start = expressionInAddress();
  if (start !== null) run(start, false);
  document.body.dataset.ready = "true";
}

main();
