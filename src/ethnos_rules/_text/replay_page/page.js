"use strict";
// The page's words: each marked text (_ called on a string) is said in the page's language
// when the page is written (html_replay.replay_html's lang).
function _(text) { return text; }
const fmt = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
// The replay page: DATA holds the views (one per decision, three where an Age ends), the
// turns (runs of views), the distinct picture parts and hints, and the rules cited. The page
// carries it compressed (PACKED: zlib, then base64), a tenth of its size as JSON.
// A step is a turn (mode "turn") or a view (mode "decision"); `at` indexes the one shown.
let DATA = null, views = [], turns = [];
let mode = "turn", at = 0;
const MOST_LISTED = 6;  // the decisions of a turn named under its title (the setup has more)
const $ = id => document.getElementById(id);
const slider = $("slider");

function esc(text) {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}
let ruleRe = null;
function rich(text) {  // escaped, each rule id a link with the rule's sentence as its tooltip
  const safe = esc(text);
  if (!ruleRe) return safe;
  return safe.replace(ruleRe, id => {
    const [href, said] = DATA.rules[id];
    return "<a class='rule' href='" + esc(href) + "' title='" + esc(said) +
      "' target='_blank' rel='noopener'>" + id + "</a>";
  });
}
function line(text) {  // a sentence; its indent says it follows a band (or a seat's bands)
  const depth = text.length - text.trimStart().length;
  const cls = depth >= 4 ? " class='sub2'" : depth >= 2 ? " class='sub'" : /:$/.test(text) ?
    " class='head'" : "";
  return "<p" + cls + ">" + rich(text.trim()) + "</p>";
}
function table(t) {
  return "<div class='table-box'><table class='scores'><caption>" + rich(t.caption) +
    "</caption><tr>" + t.head.map(h => "<th scope='col'>" + esc(h) + "</th>").join("") +
    "</tr>" + t.rows.map(r => "<tr>" + r.map(c => "<td>" + esc(c) + "</td>").join("") +
    "</tr>").join("") + "</table></div>";
}

// --- what one step shows --------------------------------------------------------------------

function span() {  // the views of the step shown: [first, last]
  if (mode === "turn") return [turns[at].first, turns[at].last];
  return [at, at];
}
function drawBoard(v) {
  const parts = v.parts.map(([top, i]) => top ?
    "<g transform='translate(0 " + top + ")'>" + DATA.parts[i] + "</g>" : DATA.parts[i]).join("");
  $("board").innerHTML =
    "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 " + WIDTH + " " + v.height +
    "' font-family='Helvetica, Arial, sans-serif' role='img'><desc>" + esc(v.desc) +
    "</desc><rect x='0' y='0' width='" + WIDTH + "' height='" + v.height + "' fill='#fff'/>" +
    parts + "</svg>";
}
function did(first, last) {  // the decisions a turn is made of, as the record writes them
  const steps = [], texts = [];
  for (let i = first; i <= last; i++) {
    const v = views[i];
    if (v.did !== null && steps[steps.length - 1] !== v.step) {
      steps.push(v.step);
      texts.push(v.did);
    }
  }
  if (!steps.length) return "";
  const which = steps.length === 1 ? fmt(_("step {step}"), { step: steps[0] }) :
    fmt(_("steps {first}–{last}"), { first: steps[0], last: steps[steps.length - 1] });
  const shown = texts.slice(0, MOST_LISTED).map(esc);
  if (texts.length > MOST_LISTED) shown.push("…");
  return "<p class='did'>" + which + ": " + shown.join(" · ") + "</p>";
}
function drawStory(first, last) {
  const v = views[last];
  let lines, title, scores = null;
  if (mode === "turn") {
    const t = turns[at];
    title = t.title;
    lines = t.lines || views.slice(first, last + 1).flatMap(w => w.lines);
  } else {
    title = v.title;
    lines = v.lines;
  }
  for (let i = first; i <= last; i++) if (views[i].scores) scores = views[i].scores;
  let story = "<h2>" + esc(title) + "</h2>" + (mode === "turn" ? did(first, last) : "");
  if (scores) {  // the table, then how each kingdom and band scored (folded on a phone)
    const open = window.matchMedia("(min-width: 900px)").matches ? " open" : "";
    story += table(scores) + "<details class='how'" + open + "><summary>" +
      fmt(_("How the Age was scored ({n} lines)"), { n: lines.length }) + "</summary>" +
      lines.map(line).join("") + "</details>";
  } else {
    story += lines.map(line).join("");
  }
  if (last === views.length - 1 && DATA.error)
    story += "<p class='error'>" + rich(DATA.error) + "</p>";
  $("story").innerHTML = story;
}
function drawHint(v) {
  const h = DATA.hints[v.hint];
  let out = "<h3>" + _("Next") + "</h3><p>" + rich(h.who) + "</p>";
  if (h.moves) {
    const count = h.moves.reduce((n, [, shown, more]) => n + shown.length + more, 0);
    out += "<h3>" + fmt(_("Legal moves ({n})"), { n: count }) + "</h3>" + h.moves.map(([verb, shown, more]) =>
      "<p class='moves'><span class='verb'>" + esc(verb) + "</span> " +
      shown.map(esc).join(" · ") + (more ? fmt(_(" · and {n} more"), { n: more }) : "") + "</p>").join("");
  }
  if (h.hidden) out += "<p class='muted'>" + esc(h.hidden) + "</p>";
  if (h.now) out += table(h.now);
  $("hint").innerHTML = out;
}
function where(first, last) {
  if (mode === "turn") {
    const a = views[first].step, b = views[last].step;
    const steps = a === b ? fmt(_("step {step}"), { step: a }) : fmt(_("steps {first}–{last}"), { first: a, last: b });
    return fmt(_("{at} of {turns} by turn · {steps} of {last}"),
      { at: at, turns: turns.length - 1, steps: steps, last: views[views.length - 1].step });
  }
  const v = views[at], parts = views.filter(w => w.step === v.step).length;
  const part = parts > 1 ? fmt(_(" (part {part} of {parts})"), { part: partOf(at), parts: parts }) : "";
  return fmt(_("step {step} of {last}"), { step: v.step, last: views[views.length - 1].step }) + part;
}
function partOf(i) {  // 1 for a decision's first view, 2 for the next, ...
  let k = 1;
  while (i - k >= 0 && views[i - k].step === views[i].step) k++;
  return k;
}
function address() {
  if (mode === "turn") return "#t" + at;
  const k = partOf(at);
  return "#" + views[at].step + (k > 1 ? "." + k : "");
}

function show(k) {
  if (!views.length) {  // the setup itself is refused: nothing to draw
    $("story").innerHTML = "<p class='error'>" + rich(DATA.error) + "</p>";
    return;
  }
  const count = mode === "turn" ? turns.length : views.length;
  at = Math.max(0, Math.min(count - 1, k));
  const [first, last] = span();
  drawBoard(mode === "turn" && turns[at].picture || views[last]);
  drawStory(first, last);
  drawHint(views[last]);
  $("where").textContent = where(first, last);
  slider.max = count - 1;
  slider.value = at;
  $("by-turn").setAttribute("aria-pressed", String(mode === "turn"));
  $("by-decision").setAttribute("aria-pressed", String(mode === "decision"));
  try { history.replaceState(null, "", address()); } catch (e) {}  // not on every file: URL
}
function setMode(wanted) {  // the same board stays in view
  if (wanted === mode || !views.length) return;
  const [, last] = span();
  mode = wanted;
  show(mode === "turn" ? views[last].turn : last);
}
function byDecision(delta) {  // one decision back or forward, whatever the mode
  setMode("decision");
  show(at + delta);
}

$("board").onclick = () => $("board").classList.toggle("zoomed");  // a phone: full size
$("first").onclick = () => show(0);
$("prev").onclick = () => show(at - 1);
$("next").onclick = () => show(at + 1);
$("last").onclick = () => show(Infinity);
$("by-turn").onclick = () => setMode("turn");
$("by-decision").onclick = () => setMode("decision");
slider.oninput = () => show(Number(slider.value));
document.addEventListener("keydown", e => {
  if (e.target === slider || e.ctrlKey || e.metaKey || e.altKey) return;  // the slider steps itself
  if (e.key === "ArrowRight") e.shiftKey ? byDecision(1) : show(at + 1);
  else if (e.key === "ArrowLeft") e.shiftKey ? byDecision(-1) : show(at - 1);
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(Infinity);
  else if (e.key === "t" || e.key === "T") setMode("turn");
  else if (e.key === "d" || e.key === "D") setMode("decision");
  else return;
  e.preventDefault();
});

function firstViewOf(step) {  // the first view of the state after `step` decisions
  const i = views.findIndex(v => v.step >= step);
  return i < 0 ? views.length - 1 : i;
}
function asked() {  // the step the address names, as [mode, index], or null
  const turn = /^#t(\d+)$/.exec(location.hash);
  if (turn) return Number(turn[1]) < turns.length ? ["turn", Number(turn[1])] : null;
  const step = /^#(\d+)(?:\.(\d+))?$/.exec(location.hash);
  if (!step || !views.length || Number(step[1]) > views[views.length - 1].step) return null;
  const i = firstViewOf(Number(step[1])), k = step[2] ? Number(step[2]) - 1 : 0;
  const same = views.filter(v => v.step === views[i].step).length;
  return k < same ? ["decision", i + k] : null;
}
function go(target) {
  mode = target[0];
  show(target[1]);
}
async function unpack(text) {
  const bytes = Uint8Array.from(atob(text), c => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return JSON.parse(await new Response(stream).text());
}
function start(data) {
  DATA = data;
  views = DATA.views;
  turns = DATA.turns;
  const ids = Object.keys(DATA.rules).sort((a, b) => b.length - a.length);
  if (ids.length) ruleRe = new RegExp("(?<![\\w-])(" + ids.join("|") + ")(?![\\w-])", "g");
  window.addEventListener("hashchange", () => {
    const target = asked();
    target ? go(target) : show(at);  // not a step: the address goes back to the step shown
  });
  go(asked() || (AT > 0 ? ["decision", firstViewOf(AT)] : ["turn", 0]));
  document.body.dataset.ready = "true";
}
if (typeof DecompressionStream === "undefined") {
  $("story").innerHTML = "<p class='error'>" + _("This browser cannot open the game: it has no DecompressionStream (Chrome 80, Firefox 113 and Safari 16.4 have it).") + "</p>";
} else {
  unpack(PACKED).then(start, err => {
    $("story").innerHTML = "<p class='error'>The game cannot be read: " + esc(err) + "</p>";
  });
}
