// The table page of `ethnos-rules play` (/seat/GAME/SECRET and /hotseat/GAME/SECRET).
//
// This page restates no rule of Ethnos. It sends what the person tries (an action in the
// notation of docs/reference/notation.md) and shows the referee's answer: the new view, or a
// refusal with its rule. What is legal, what is being decided and by whom, what happened and
// what it scored all come from the server (API: the play server's contract).
"use strict";

(function () {
  const parts = location.pathname.split("/").filter(Boolean); // ["seat"|"hotseat", game, secret]
  const MODE = parts[0];
  const HOTSEAT = MODE === "hotseat";
  const API = "/api/games/" + encodeURIComponent(parts[1] || "") + "/" + encodeURIComponent(parts[2] || "");
  // While others (bots, chance, other people) decide, the view is polled soon after each
  // change and less often while nothing changes; rarely while it is this seat's decision.
  const POLL_FAST_MS = 100;
  const POLL_WAITING_MS = 500;
  const POLL_IDLE_MS = 1500;

  // The page's words: the server writes each marked text of this file (_ called on a string)
  // in the page's language
  // (?lang=es, <html lang>); what it says through the API comes in that language too.
  const LANG = document.documentElement.lang || "en";
  function _(text) { return text; }
  const fmt = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
  const withLang = (url) => (LANG === "en" ? url : url + (url.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(LANG));

  const $ = (id) => document.getElementById(id);
  const el = (tag, props, text) => {
    const node = document.createElement(tag);
    if (props) for (const [k, v] of Object.entries(props)) {
      if (k === "class") node.className = v;
      else if (k.startsWith("data-")) node.setAttribute(k, v);
      else node[k] = v;
    }
    if (text !== undefined) node.textContent = text;
    return node;
  };

  let view = null; // the last view shown
  let pendingView = null; // hot-seat: a view of another seat, waiting behind the cover
  let shownSeat = null; // the seat whose hand is on screen
  let lastStep = -1; // the newest log step received (for ?since=); step 0 is the setup's
  let picks = []; // indexes into view.hand picked for a band
  let leader = null; // the index (into view.hand) of the picked Leader
  let busy = false;
  let pollTimer = null;
  let pollDelay = POLL_FAST_MS;
  let epoch = 0; // counts actions sent: a poll answered across one is out of date
  let newestVersion = -1; // the newest version seen: an older view is never shown
  let tribeNames = {}; // code -> English name, from /api/setup (display only)

  // ------------------------------------------------------------------ talking to the server

  async function getJSON(url) {
    const resp = await fetch(withLang(url), { headers: { Accept: "application/json" } });
    let body = null;
    try { body = await resp.json(); } catch (_) { body = null; }
    return { status: resp.status, ok: resp.ok, body: body || {} };
  }

  async function postJSON(url, data) {
    const resp = await fetch(withLang(url), {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(data),
    });
    let body = null;
    try { body = await resp.json(); } catch (_) { body = null; }
    return { status: resp.status, ok: resp.ok, body: body || {} };
  }

  // ------------------------------------------------------------------ small pieces

  // A rule id as the server names it ({rule, rule_url, rule_title}): a link to its text on
  // /rules, what the rule says as the tooltip.
  function ruleLink(named) {
    if (!named || !named.rule) return document.createTextNode("");
    const rule = named.rule;
    const a = el("a", { href: named.rule_url || "/rules#" + encodeURIComponent(rule), target: "_blank", rel: "noopener", class: "rule" }, rule);
    a.title = named.rule_title || fmt(_("the text of rule {rule}"), { rule: rule });
    return a;
  }

  // A sentence without the rule id it ends with ("… (BAND-5a)."): ruleLink shows that id.
  function withoutRule(text) {
    return text.replace(/\s*\(([A-Z]+(?:-[A-Za-z0-9]+)+)\)\.?\s*$/, ".").replace(/\.\.$/, ".");
  }

  function cardLabel(code) {
    // Display only: "ELF-red" is drawn as "Elves · red" in red; the rules never look at this.
    const [tribe, colour] = String(code).split("-");
    return { tribe: tribe, colour: colour || "", name: tribeNames[tribe] || tribe };
  }

  function cardButton(code, extraClass) {
    const c = cardLabel(code);
    const b = el("button", { type: "button", class: "card " + (extraClass || "") + (c.colour ? " c-" + c.colour.toLowerCase() : " c-none"), "data-card": code });
    b.appendChild(el("span", { class: "card-tribe" }, c.name));
    b.appendChild(el("span", { class: "card-colour" }, c.colour || _("any colour")));
    b.appendChild(el("span", { class: "card-code" }, code));
    b.title = code;
    return b;
  }

  function seatName(seat) {
    if (seat === null || seat === undefined) return _("chance");
    if (view && seat === view.seat) return fmt(_("seat {seat} (you)"), { seat: seat });
    const kind = view && view.seats ? (view.seats.find((x) => x.seat === seat) || {}).kind : null;
    if (kind && kind !== "person") return fmt(_("seat {seat} ({bot} bot)"), { seat: seat, bot: kind });
    return fmt(_("seat {seat}"), { seat: seat });
  }

  function showRefusal(refusal) {
    const box = $("refusal");
    box.replaceChildren();
    box.appendChild(el("strong", null, _("Refused: ")));
    box.appendChild(document.createTextNode(refusal.reason || _("the referee refuses this.")));
    box.appendChild(document.createTextNode(" "));
    const rule = el("span", { class: "refusal-rule" });
    rule.appendChild(document.createTextNode(_("(rule ")));
    rule.appendChild(ruleLink(refusal));
    rule.appendChild(document.createTextNode(")"));
    box.appendChild(rule);
    const tried = el("p", { class: "refusal-tried" });
    tried.appendChild(document.createTextNode(_("You tried ")));
    tried.appendChild(el("code", null, refusal.text || ""));
    tried.appendChild(document.createTextNode(_(". Nothing changed; try something else.")));
    box.appendChild(tried);
    box.hidden = false;
  }

  function showMessage(text) {
    const box = $("message");
    box.textContent = text;
    box.hidden = !text;
  }

  function clearNotes() {
    $("refusal").hidden = true;
    showMessage("");
  }

  // ------------------------------------------------------------------ acting

  async function act(text) {
    if (!view || busy) return;
    text = String(text).trim();
    if (!text) return;
    busy = true;
    epoch += 1;
    clearNotes();
    try {
      const r = await postJSON(API + "/act", { action: text, version: view.version });
      if (r.status === 200 && r.body.view) {
        picks = []; leader = null;
        $("legal").replaceChildren();
        $("hint-out").hidden = true;
        $("action-text").value = "";
        take(r.body.view, true);
      } else if (r.status === 422 && r.body.refusal) {
        showRefusal(Object.assign({ text: text }, r.body.refusal));
      } else if (r.status === 409) {
        showMessage((r.body.error || _("The game moved on.")) + " " + _("The table is shown as it is now; try again."));
        await poll(true);
      } else {
        showMessage(r.body.error || fmt(_("The server answered {status}."), { status: r.status }));
      }
    } catch (err) {
      showMessage(fmt(_("The server cannot be reached ({error}). Is `ethnos-rules play` still running?"), { error: err }));
    } finally {
      busy = false;
    }
  }

  function bandText() {
    if (!view || leader === null) return "";
    const others = picks.filter((i) => i !== leader).map((i) => view.hand[i]);
    return ["band", "*" + view.hand[leader]].concat(others).join(" ");
  }

  function togglePick(i) {
    const at = picks.indexOf(i);
    if (at >= 0) {
      picks.splice(at, 1);
      if (leader === i) leader = picks.length ? picks[0] : null;
    } else {
      picks.push(i);
      if (leader === null) leader = i;
    }
    renderHand();
  }

  // ------------------------------------------------------------------ drawing the view

  function renderHand() {
    const hand = $("hand");
    hand.replaceChildren();
    const cards = view ? view.hand : [];
    cards.forEach((code, i) => {
      const b = cardButton(code, picks.includes(i) ? "picked" : "");
      if (leader === i) { b.classList.add("leader"); b.dataset.leader = _("Leader"); }
      b.setAttribute("aria-pressed", picks.includes(i) ? "true" : "false");
      b.addEventListener("click", () => togglePick(i));
      hand.appendChild(b);
    });
    if (!cards.length) hand.appendChild(el("span", { class: "empty" }, _("no cards")));
    $("hand-count").textContent = "(" + cards.length + ")";

    const tray = $("band-tray");
    const chips = $("band-cards");
    chips.replaceChildren();
    picks.forEach((i) => {
      const chip = el("button", { type: "button", class: "chip" + (leader === i ? " leader" : ""), "data-card": view.hand[i] },
        (leader === i ? "★ " : "☆ ") + view.hand[i]);
      chip.title = leader === i ? _("the Leader of the band") : fmt(_("make {card} the Leader"), { card: view.hand[i] });
      chip.addEventListener("click", () => { leader = i; renderHand(); });
      chips.appendChild(chip);
    });
    tray.hidden = picks.length === 0;
    $("play-band").title = bandText();
  }

  function renderRow() {
    const row = $("row");
    row.replaceChildren();
    (view.row || []).forEach((code) => {
      const b = cardButton(code, "in-row");
      b.title = "recruit " + code;
      b.addEventListener("click", () => act("recruit " + code));
      row.appendChild(b);
    });
    if (!(view.row || []).length) row.appendChild(el("span", { class: "empty" }, _("the row is empty")));
    $("deck-count").textContent = view.deck === 1 ? _("1 card") : fmt(_("{n} cards"), { n: view.deck });
  }

  function renderPending() {
    const p = $("pending");
    p.replaceChildren();
    p.hidden = Boolean(view.finished || !view.pending);
    if (p.hidden) return;
    const pend = view.pending;
    const who = el("span", { class: "who" },
      pend.yours ? _("Your decision: ") : pend.seat === null || pend.seat === undefined ? _("Waiting: ") : fmt(_("{seat} decides: "), { seat: seatName(pend.seat) }));
    p.appendChild(who);
    // the description without its rule id and its "seat N: " (in any language: up to the colon)
    const what = pend.text.replace(/\s*\(([A-Z]+(?:-[A-Za-z0-9]+)+)\)\s*$/, "").replace(/^[^:\d]{1,20}\d+:\s*/, "");
    p.appendChild(document.createTextNode(what + " "));
    p.appendChild(ruleLink(pend));
  }

  function renderSummary() {
    const s = $("summary");
    const glory = (view.glory || []).map((g, seat) => seatName(seat) + ": " + g).join(" · ");
    s.textContent = fmt(_("Age {age} · Glory: {glory}"), { age: view.age, glory: glory });
    $("whoami").textContent = "— " + (HOTSEAT ? _("hot-seat, ") : "") + fmt(_("seat {seat}"), { seat: view.seat });
    document.title = "Ethnos — " + fmt(_("seat {seat}"), { seat: view.seat }) + (view.pending && view.pending.yours ? _(" (your move)") : "");
  }

  function renderBoard() {
    const board = $("board");
    board.innerHTML = view.board_svg || ""; // the server's own SVG picture of what this seat sees
    const svg = board.querySelector("svg");
    if (svg) {
      svg.removeAttribute("height");
      svg.setAttribute("width", "100%");
      svg.setAttribute("role", "img");
    }
    highlight(view.changed || []);
  }

  // What the server says changed ("hand", "row", "deck", "seat-N", "kingdom-NAME"), marked on
  // the page and on the picture (its g.player[data-seat] and g.kingdom[data-kingdom]).
  function highlight(changed) {
    for (const old of document.querySelectorAll(".changed")) old.classList.remove("changed");
    const board = $("board");
    for (const what of changed) {
      let nodes = [];
      if (what === "hand") nodes = [$("hand")];
      else if (what === "row") nodes = [$("row").parentElement];
      else if (what === "deck") nodes = [$("deck")];
      else if (what.startsWith("seat-")) {
        nodes = [...board.querySelectorAll("g.player")].filter((g) => g.dataset.seat === what.slice(5));
      } else if (what.startsWith("kingdom-")) {
        nodes = [...board.querySelectorAll("g.kingdom")].filter((g) => g.dataset.kingdom === what.slice(8));
      }
      for (const node of nodes) node.classList.add("changed");
    }
  }

  function addLog(entries, reset) {
    const log = $("log");
    if (reset) log.replaceChildren();
    // a view may repeat steps already shown (the answer to an action carries the log from
    // any point): only the steps after the newest one shown are added
    entries = (entries || []).filter((entry) => (entry.step || 0) > lastStep);
    if (entries.length) for (const old of log.querySelectorAll(".newest")) old.classList.remove("newest");
    let newest = lastStep;
    for (const entry of entries) newest = Math.max(newest, entry.step || 0);
    for (const entry of entries) {
      const li = el("li", { class: "ev" + (entry.step === newest ? " newest" : ""), "data-step": String(entry.step) });
      li.value = entry.step;
      li.appendChild(el("span", { class: "ev-step" }, fmt(_("step {step}: "), { step: entry.step })));
      li.appendChild(el("span", { class: "ev-text" }, withoutRule(entry.text)));
      if (entry.rule) {
        li.appendChild(document.createTextNode(" "));
        li.appendChild(ruleLink(entry));
      }
      log.prepend(li);
    }
    lastStep = newest;
  }

  function renderFinal() {
    const box = $("final");
    if (!view.finished) { box.hidden = true; return; }
    const tbody = box.querySelector("tbody");
    tbody.replaceChildren();
    const scores = view.scores || { glory: view.glory, winners: [] };
    const said = $("final-text");
    said.replaceChildren();
    if (scores.text) {
      said.appendChild(document.createTextNode(withoutRule(scores.text) + " "));
      said.appendChild(ruleLink(scores));
    }
    const winners = scores.winners || [];
    (scores.glory || []).forEach((g, seat) => {
      const tr = el("tr", { class: winners.includes(seat) ? "winner" : "" });
      tr.appendChild(el("td", null, seatName(seat)));
      tr.appendChild(el("td", null, String(g)));
      tr.appendChild(el("td", null, winners.includes(seat) ? _("wins") : ""));
      tbody.appendChild(tr);
    });
    $("dl-seat").href = API + "/record.json";
    $("dl-seat").setAttribute("download", "ethnos-" + view.game + "-seat" + view.seat + ".json");
    $("dl-whole").href = API + "/record.json?whole=1";
    $("dl-whole").setAttribute("download", "ethnos-" + view.game + ".json");
    $("open-replay").href = withLang(API + "/replay.html");
    box.hidden = false;
  }

  function render(v, reset) {
    view = v;
    shownSeat = v.seat;
    if (reset) { picks = []; leader = null; }
    picks = picks.filter((i) => i < v.hand.length);
    if (leader !== null && leader >= v.hand.length) leader = picks.length ? picks[0] : null;
    renderSummary();
    renderPending();
    renderHand();
    renderRow();
    renderBoard();
    renderFinal();
    const state = v.finished ? "finished" : v.pending && v.pending.yours ? "yours" : "waiting";
    document.body.dataset.state = state;
    if (v.problem) showMessage(v.problem);
    document.body.dataset.version = String(v.version);
    document.body.dataset.seat = String(v.seat);
    $("table").hidden = false;
  }

  // A new view from the server: show it, or (hot-seat, another person's turn) hide it behind
  // the cover until that person clicks.
  function take(v, fromAct) {
    if (v.version < newestVersion) return; // an answer overtaken by a newer one
    newestVersion = v.version;
    if (HOTSEAT && shownSeat !== null && v.seat !== shownSeat) {
      coverFor(v);
      return;
    }
    if (HOTSEAT && shownSeat === null) {
      coverFor(v);
      return;
    }
    addLog(v.log, false);
    render(v, false);
    if (fromAct) { pollDelay = POLL_FAST_MS; schedule(pollDelay); }
  }

  function coverFor(v) {
    pendingView = v;
    $("table").hidden = true;
    $("hand").replaceChildren();
    $("board").replaceChildren();
    $("cover-text").textContent = fmt(_("Pass the device to seat {seat}."), { seat: v.seat });
    $("cover-show").textContent = fmt(_("I am seat {seat}: show my hand"), { seat: v.seat });
    $("cover").hidden = false;
    document.body.dataset.state = "covered";
    document.body.dataset.seat = String(v.seat);
  }

  async function uncover() {
    if (!pendingView) return;
    $("cover").hidden = true;
    document.body.dataset.state = "uncovering";
    // this seat's log, from the start: each seat sees the events as it saw them
    lastStep = -1;
    const r = await getJSON(API + "/view");
    const v = r.ok ? r.body : pendingView;
    const covered = pendingView.seat;
    pendingView = null;
    if (v.seat !== covered) { coverFor(v); return; } // the turn moved on meanwhile
    clearNotes();
    $("legal").replaceChildren();
    $("hint-out").hidden = true;
    addLog(v.log, true);
    render(v, true);
    pollDelay = POLL_FAST_MS;
    schedule(pollDelay);
  }

  // ------------------------------------------------------------------ polling

  function schedule(ms) {
    if (pollTimer) clearTimeout(pollTimer);
    pollTimer = setTimeout(() => poll(false), ms);
  }

  async function poll(full) {
    if (pollTimer) { clearTimeout(pollTimer); pollTimer = null; }
    pollDelay = Math.min(POLL_WAITING_MS, Math.round(pollDelay * 1.5));
    let next = pollDelay;
    if (!busy) {
      try {
        const since = full || shownSeat === null || lastStep < 0 ? null : lastStep;
        const asked = epoch;
        const r = await getJSON(API + "/view" + (since === null ? "" : "?since=" + since));
        if (asked !== epoch || busy || (r.ok && r.body.version < newestVersion)) {
          // an action was sent meanwhile: this answer may be older than its answer
        } else if (r.ok) {
          const v = r.body;
          if (pendingView) {
            pendingView = v; // still behind the cover
            $("cover-text").textContent = fmt(_("Pass the device to seat {seat}."), { seat: v.seat });
          } else if (!view || v.version !== view.version || v.seat !== view.seat || (v.log && v.log.length) || v.finished !== view.finished) {
            take(v, false);
            pollDelay = POLL_FAST_MS;
            next = pollDelay;
          }
          if (v.finished || (v.pending && v.pending.yours)) next = POLL_IDLE_MS;
        } else {
          showMessage(r.body.error || fmt(_("The server answered {status}."), { status: r.status }));
          next = POLL_IDLE_MS * 2;
        }
      } catch (err) {
        showMessage(fmt(_("The server cannot be reached ({error}). Is `ethnos-rules play` still running?"), { error: err }));
        next = POLL_IDLE_MS * 2;
      }
    }
    schedule(next);
  }

  // ------------------------------------------------------------------ hints

  async function showLegal() {
    const box = $("legal");
    box.replaceChildren();
    const r = await getJSON(API + "/hint/legal");
    const actions = (r.body && r.body.actions) || [];
    if (!actions.length) {
      box.appendChild(el("p", { class: "tip" }, r.body.pending ? _("Not your decision now: ") + r.body.pending : (r.body.error || _("No decision of yours now."))));
      return;
    }
    box.appendChild(el("p", { class: "tip" }, _("The referee's legal moves for you now (click one to play it):")));
    const list = el("div", { class: "legal-list" });
    for (const text of actions) {
      const b = el("button", { type: "button", class: "legal-move", "data-action": text }, text);
      b.addEventListener("click", () => act(text));
      list.appendChild(b);
    }
    box.appendChild(list);
  }

  async function showScoreNow() {
    const out = $("hint-out");
    out.replaceChildren();
    const r = await getJSON(API + "/hint/score-now");
    if (!r.ok) { out.textContent = r.body.error || fmt(_("No answer ({status})."), { status: r.status }); out.hidden = false; return; }
    out.appendChild(el("h4", null, _("If the Age ended now")));
    const glory = r.body.glory || [];
    out.appendChild(el("p", null, _("Glory: ") + glory.map((g, seat) => seatName(seat) + ": " + g).join(" · ")));
    const ul = el("ul");
    const rules = r.body.rules || [];
    (r.body.lines || []).forEach((line, i) => {
      const li = el("li", null, rules[i] ? withoutRule(line) + " " : line);
      if (rules[i]) li.appendChild(ruleLink(rules[i]));
      ul.appendChild(li);
    });
    out.appendChild(ul);
    out.hidden = false;
  }

  async function showBot() {
    const out = $("hint-out");
    out.replaceChildren();
    const name = $("hint-bot-name").value || "greedy";
    const r = await getJSON(API + "/hint/bot?name=" + encodeURIComponent(name));
    if (!r.ok || !r.body.action) {
      out.textContent = r.body.error || _("The bot has nothing to decide now.");
      out.hidden = false;
      return;
    }
    out.appendChild(el("h4", null, fmt(_("The {bot} bot would play"), { bot: r.body.bot || name })));
    const b = el("button", { type: "button", class: "legal-move", "data-action": r.body.action }, r.body.action);
    b.title = _("play it");
    b.addEventListener("click", () => act(r.body.action));
    out.appendChild(b);
    out.hidden = false;
  }

  // ------------------------------------------------------------------ start

  async function start() {
    $("play-band").addEventListener("click", () => { const t = bandText(); if (t) act(t); });
    $("clear-band").addEventListener("click", () => { picks = []; leader = null; renderHand(); });
    $("deck").addEventListener("click", () => act("recruit deck"));
    $("free").addEventListener("submit", (ev) => { ev.preventDefault(); act($("action-text").value); });
    $("hint-legal").addEventListener("click", showLegal);
    $("hint-score").addEventListener("click", showScoreNow);
    $("hint-bot").addEventListener("click", showBot);
    $("cover-show").addEventListener("click", uncover);
    $("zoom").addEventListener("click", () => {
      const zoomed = $("board").classList.toggle("zoomed");
      $("zoom").textContent = zoomed ? _("fit to width") : _("zoom in");
      $("zoom").setAttribute("aria-pressed", zoomed ? "true" : "false");
    });
    const language = $("language");
    if (language) language.addEventListener("change", () => {
      const url = new URL(location.href);
      url.searchParams.set("lang", language.value);
      location.assign(url.toString());
    });
    try {
      const [setup, bots] = await Promise.all([getJSON("/api/setup"), getJSON("/api/bots")]);
      for (const t of (setup.body && setup.body.tribes) || []) tribeNames[t.code] = t.name;
      const sel = $("hint-bot-name");
      for (const b of (bots.body && bots.body.bots) || []) {
        const o = el("option", { value: b.name }, b.name);
        o.title = b.description || "";
        sel.appendChild(o);
      }
      const preferred = (bots.body && bots.body.default) || "greedy";  // the table's opponent
      if ([...sel.options].some((o) => o.value === preferred)) sel.value = preferred;
    } catch (_) { /* names are for display only */ }
    await poll(true);
  }

  start();
})();
