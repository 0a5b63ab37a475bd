// The kute playground: evaluates what is typed with kute compiled to WebAssembly
// (crates/kute-wasm, bound by wasm-bindgen into pkg/), and shows the value, the
// print_layout table and the SVG picture. The page's address holds the expression
// and the bank colouring (#e=<URL-encoded expression>[&banks=BYTES[&access=ACCESS]]),
// so a link to it shows the same answer; every answer is an entry of the browser's
// history (Back and Forward step through them), and the arrow keys in the input step
// through this session's expressions, as in a shell.

import init, { evaluate_drawn, examples, version } from "./pkg/kute_wasm.js";

const $ = (id) => document.getElementById(id);
let downloadUrl = null;

/** Tables above this many characters are folded (drawing a megabyte of text takes a while). */
const TABLE_FOLD_CHARS = 200_000;

/** Pictures up to this many characters are put in the page (tooltips work); larger ones are an image. */
const INLINE_SVG_CHARS = 400_000;

/** What is shown: {expr, banks, access} (banks: bytes per element, 0 for none). */
let shown = null;

/** The expressions evaluated in this session, oldest first (ArrowUp/ArrowDown). */
const session = [];
/** Where ArrowUp/ArrowDown is in `session` (session.length: the line being typed), and that line. */
let recall = { at: 0, draft: "" };

/** The state in the page's address (#e=...&banks=...&access=..., or ?e=...), or null. */
function stateInAddress() {
  for (const part of [location.hash.slice(1), location.search.slice(1)]) {
    const get = (key) => {
      for (const kv of part.split("&")) {
        if (kv.startsWith(key + "=")) {
          try {
            return decodeURIComponent(kv.slice(key.length + 1));
          } catch {
            return kv.slice(key.length + 1);
          }
        }
      }
      return null;
    };
    const expr = get("e");
    if (expr !== null) {
      const banks = parseInt(get("banks") || "0", 10);
      return { expr, banks: Number.isFinite(banks) && banks > 0 ? banks : 0, access: get("access") || "" };
    }
  }
  return null;
}

/** The address of the page showing `state` (an expression, or {expr, banks, access}). */
function linkTo(state) {
  const s = typeof state === "string" ? { expr: state, banks: 0, access: "" } : state;
  let hash = "#e=" + encodeURIComponent(s.expr);
  if (s.banks) {
    hash += "&banks=" + s.banks;
    if (s.access) hash += "&access=" + encodeURIComponent(s.access);
  }
  return location.pathname + location.search.replace(/(^\?|&)e=[^&]*/, "") + hash;
}

const same = (a, b) => !!a && !!b && a.expr === b.expr && a.banks === b.banks && a.access === b.access;

function show(el, on) {
  el.hidden = !on;
}

/** The bank colouring the controls ask for. */
function controls() {
  const on = $("banks-on").checked;
  return { banks: on ? parseInt($("elem-bytes").value, 10) : 0, access: on ? $("access").value.trim() : "" };
}

/** Set the controls to `state`'s bank colouring. */
function setControls(state) {
  $("banks-on").checked = state.banks > 0;
  if (state.banks > 0) {
    const sel = $("elem-bytes");
    if (![...sel.options].some((o) => o.value === String(state.banks))) {
      sel.add(new Option(state.banks + " bytes", String(state.banks)));
    }
    sel.value = String(state.banks);
    $("access").value = state.access;
  }
}

/** Remember `expr` for ArrowUp/ArrowDown (once, if it repeats the last one). */
function remember(expr) {
  if (expr.trim() !== "" && session[session.length - 1] !== expr) session.push(expr);
  recall = { at: session.length, draft: "" };
}

/**
 * Evaluate `state` ({expr, banks, access}) and show the answer. `how` is "push"
 * (a new answer: a new entry of the browser's history), "replace" (the entry
 * shown now) or "none" (the address already holds it: a link, Back or Forward).
 */
function run(state, how) {
  const input = $("expr");
  if (input.value !== state.expr) input.value = state.expr;
  setControls(state);
  const link = linkTo(state);
  if (how === "push" && !same(shown, state)) history.pushState(state, "", link);
  else if (how !== "none") history.replaceState(state, "", link);
  shown = state;
  remember(state.expr);
  $("share").href = link;

  let r;
  try {
    r = evaluate_drawn(state.expr, state.banks, state.access);
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

  showTable(r.ok ? r.table : undefined);

  const picture = $("picture");
  picture.replaceChildren();
  if (downloadUrl) URL.revokeObjectURL(downloadUrl);
  downloadUrl = null;
  const svg = r.ok ? r.svg : undefined;
  let drawn = false;
  if (svg) {
    downloadUrl = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
    $("download").href = downloadUrl;
    $("download").download = svg.startsWith("<svg") ? "layout.svg" : "tv-layout.svg";
    if (svg.length <= INLINE_SVG_CHARS) {
      // in the page: its cells' tooltips show their coordinates
      const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
      const root = doc.documentElement;
      if (root && root.nodeName === "svg" && !doc.querySelector("parsererror")) {
        picture.appendChild(document.importNode(root, true));
        drawn = true;
      }
    } else {
      // a large picture (CuTe's print_svg of a big MMA: megabytes) as an image of
      // the document: the browser draws it off the page's DOM
      const img = new Image();
      const size = svgSize(svg);
      if (size) {
        img.width = size[0];
        img.height = size[1];
      }
      img.alt = "the picture of " + r.result;
      img.decoding = "async";
      img.src = downloadUrl;
      picture.appendChild(img);
      drawn = true;
    }
  }
  show($("picture-section"), drawn);
  $("picture-kind").innerHTML =
    state.banks && r.ok && !r.banks_note
      ? "(<code>kute svg --banks " + state.banks + (state.access ? " --access " + escapeHtml(state.access) : "") + "</code>)"
      : "(<code>kute svg</code>)";

  const notes = [];
  if (r.ok && r.note) notes.push("Note: " + r.note);
  if (r.ok && r.table_note) notes.push("No table: " + r.table_note);
  if (r.ok && r.svg_note) notes.push("No picture: " + r.svg_note);
  if (r.ok && r.banks_note) notes.push("No bank colours: " + r.banks_note);
  if (r.ok && !r.table && !svg && !r.table_note && !r.svg_note) notes.push("Only layouts, MMAs and copies are drawn.");
  $("notes").textContent = notes.join("\n");
  show($("notes"), notes.length > 0);
  if (typeof r.free === "function") r.free();
}

function escapeHtml(t) {
  return t.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

/** The width and height of an SVG document, from its root's width/height or viewBox. */
function svgSize(svg) {
  const head = svg.slice(0, svg.indexOf(">", svg.indexOf("<svg")) + 1);
  const w = /\swidth="([\d.]+)"/.exec(head);
  const h = /\sheight="([\d.]+)"/.exec(head);
  if (w && h) return [Math.ceil(+w[1]), Math.ceil(+h[1])];
  const vb = /viewBox="[\d.-]+ [\d.-]+ ([\d.]+) ([\d.]+)"/.exec(head);
  // CuTe's pictures are 100% wide, in units of 20-pixel cells: draw a unit a pixel
  return vb ? [Math.ceil(+vb[1]), Math.ceil(+vb[2])] : null;
}

/** Show a table; a large one folded, its text set when it is unfolded. */
let pendingTable = null;
function showTable(table) {
  show($("table-section"), !!table);
  const details = $("table-details");
  const big = !!table && table.length > TABLE_FOLD_CHARS;
  $("table-size").textContent = big ? `(${Math.round(table.length / 1024)} KiB: click to show)` : "";
  pendingTable = big ? table : null;
  details.open = !big;
  $("table").textContent = big ? "" : table || "";
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
    // an example keeps the bank colouring the controls ask for
    a.addEventListener("click", (ev) => {
      ev.preventDefault();
      run({ expr: x.expr, ...controls() }, "push");
    });
    nav.appendChild(a);
  }

  $("form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    run({ expr: $("expr").value, ...controls() }, "push");
  });
  // the controls redraw what is shown
  for (const id of ["banks-on", "elem-bytes"]) {
    $(id).addEventListener("change", () => {
      if (shown) run({ expr: $("expr").value, ...controls() }, "push");
    });
  }
  $("access").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") {
      ev.preventDefault();
      if (!$("banks-on").checked) $("banks-on").checked = true;
      run({ expr: $("expr").value, ...controls() }, "push");
    }
  });
  $("access").addEventListener("change", () => {
    if (shown && $("banks-on").checked) run({ expr: $("expr").value, ...controls() }, "push");
  });
  $("table-details").addEventListener("toggle", () => {
    if ($("table-details").open && pendingTable !== null) {
      $("table").textContent = pendingTable;
      pendingTable = null;
      $("table-size").textContent = "";
    }
  });
  $("fit").addEventListener("change", () => $("picture").classList.toggle("fit", $("fit").checked));

  // ArrowUp/ArrowDown: this session's expressions, as a shell's history
  $("expr").addEventListener("keydown", (ev) => {
    if ((ev.key !== "ArrowUp" && ev.key !== "ArrowDown") || ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    const input = ev.target;
    if (recall.at === session.length) recall.draft = input.value;
    const at = recall.at + (ev.key === "ArrowUp" ? -1 : 1);
    if (at < 0 || at > session.length) return;
    ev.preventDefault();
    recall.at = at;
    input.value = at === session.length ? recall.draft : session[at];
    input.setSelectionRange(input.value.length, input.value.length);
  });
  $("expr").addEventListener("input", () => {
    recall = { at: session.length, draft: "" };
  });

  // Back and Forward, a link typed into the address bar: show what the address holds
  const fromAddress = () => {
    const s = stateInAddress();
    if (s !== null && !same(s, shown)) run(s, "none");
  };
  window.addEventListener("popstate", fromAddress);
  window.addEventListener("hashchange", fromAddress);
  $("go").disabled = false;

  const start = stateInAddress();
  if (start !== null) run(start, "replace");
  document.body.dataset.ready = "true";
}

main();
