// A table of the play server: the seat's picture (the server's SVG of the seat's view), its
// legal moves as buttons and as clickable parts of the picture, what just happened, the end
// of the game with its replay, the review's chart of each seat's chance to win, and the save.
// The seats' tokens are in the link's fragment (#s0=TOKEN&s2=TOKEN: several for a hot seat;
// none for a spectator), which never reaches the server's logs. Text from the server goes in
// with textContent, never as HTML.
"use strict";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const tokens = new Map();
for (const part of location.hash.slice(1).split("&")) {
  const found = /^s(\d+)=(.+)$/.exec(part);
  if (found) tokens.set(Number(found[1]), decodeURIComponent(found[2]));
}
const hotSeat = tokens.size > 1;
const states = new Map();
const sockets = new Map();
let shown = null;          // the seat on screen (null: a spectator)
let revealed = null;       // hot seat: the seat that pressed "show my hand"
let pick = null;           // the pick chosen, waiting for its target
let narrated = -1;         // the last ply told in "what just happened"
let replayPly = null;      // the ply the replay shows (null: the end)
let drawing = 0;           // the newest picture asked for
let result = null;

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, text = null) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  return node;
}

// ------------------------------------------------------------------ words

const TITLES = {"ordonnance": "Ordonnance", "shinobi": "Shinobi", "black-prince": "Black Prince"};

function capital(text) { return String(text).charAt(0).toUpperCase() + String(text).slice(1); }

const VALUE_WORDS = {
  territory: (v) => capital(v), province: (v) => `province ${v}`, from_province: (v) => `from province ${v}`,
  to_province: (v) => `to province ${v}`, clan: (v) => v, target_clan: (v) => `against ${v}`, card: (v) => v,
  card_clan: (v) => v, column: (v) => `column ${v}`, step: (v) => `step ${v > 0 ? "+" : ""}${v}`,
  target: (v) => `at column ${v}`,
};
const VERBS = {
  play: "play", claim: "claim", deploy: "deploy", reinforce: "reinforce with", move: "move", ninja: "send a ninja to",
  attack: "attack with", place: "place", play_battle: "play the battle", fight: "fight from", end_turn: "end the turn",
};

function words(action, keys = Object.keys(action).filter((k) => k !== "type")) {
  return keys.map((k) => (VALUE_WORDS[k] ? VALUE_WORDS[k](action[k]) : `${k} ${action[k]}`)).join(" ");
}

// What a move did, in words: the first template whose fields are the action's.
const TOLD = {
  play: ["plays {card} on {territory}"], claim: ["claims {territory}"],
  deploy: ["deploys {card_clan} to province {province}"], reinforce: ["reinforces with {card_clan}"],
  move: ["moves {clan} from province {from_province} to province {to_province}", "moves column {column} by {step}"],
  ninja: ["sends a ninja against {clan} in province {province}"],
  attack: ["attacks {target_clan} in province {province} with {clan}"],
  place: ["places {card} in column {column}"], play_battle: ["plays the battle"],
  fight: ["fights from column {column} at column {target}"], end_turn: ["ends the turn"],
};

function told(action) {
  const keys = Object.keys(action).filter((k) => k !== "type").sort().join(" ");
  for (const template of TOLD[action.type] ?? []) {
    const fields = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    if (fields.sort().join(" ") === keys) {
      return template.replace(/\{(\w+)\}/g, (_, k) => (k === "territory" ? capital(action[k]) : String(action[k])));
    }
  }
  return sentence(action);
}

function sentence(action) {
  const verb = VERBS[action.type] ?? action.type.replaceAll("_", " ");
  return `${verb} ${words(action)}`.trim();
}

function seatName(state, seat) {
  const info = state.seats[seat];
  return info && info.name ? info.name : `Seat ${seat}`;
}

// ------------------------------------------------------------------ connections

function setConnection(text) { $("connection").textContent = text; }

function connect(seat) {
  let delay = 500;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const query = seat === null ? "" : `?token=${encodeURIComponent(tokens.get(seat))}`;
    const socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}${query}`);
    sockets.set(seat, socket);
    socket.addEventListener("open", () => { delay = 500; setConnection("connected"); });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state") received(seat, message);
      else if (message.type === "error") moveError(message.message);
    });
    socket.addEventListener("close", (event) => {
      if (event.code === 1008) { setConnection(`refused: ${event.reason}`); return; }
      setConnection(`connection lost: trying again in ${(delay / 1000).toFixed(1)} s`);
      setTimeout(open, delay);
      delay = Math.min(delay * 2, 8000);
    });
  };
  open();
}

function send(action) {
  const state = states.get(shown);
  const socket = sockets.get(shown);
  if (!state || !socket || socket.readyState !== WebSocket.OPEN) { moveError("not connected: try again in a moment"); return; }
  for (const button of document.querySelectorAll("#turn button")) button.disabled = true;
  socket.send(JSON.stringify({type: "move", ply: state.ply, action}));
}

function moveError(text) {
  $("move-error").textContent = text;
  $("move-error").hidden = false;
  for (const button of document.querySelectorAll("#turn button")) button.disabled = false;
}

// ------------------------------------------------------------------ the state

function newest() {
  let best = null;
  for (const state of states.values()) if (best === null || state.ply > best.ply) best = state;
  return best;
}

function received(seat, state) {
  states.set(seat, state);
  const now = newest();
  if (tokens.size === 0) shown = null;
  else if (now.status === "playing" && tokens.has(now.current_player)) shown = now.current_player;
  else if (shown === null || !tokens.has(shown)) shown = [...tokens.keys()][0];
  if (now.ply !== states.get(shown)?.ply) return; // the shown seat's update is on its way
  update();
}

function update() {
  const state = states.get(shown);
  document.title = `${TITLES[state.game] ?? state.game}: table ${state.table}`;
  $("title").textContent = `${TITLES[state.game] ?? state.game} · table ${state.table}`;
  $("rules").href = `/rules/${encodeURIComponent(state.game)}`;
  $("rules").textContent = `${TITLES[state.game] ?? state.game} rules`;
  narrate(state);
  if (hotSeat && state.status === "playing" && revealed !== shown) {
    passDevice(state);
    return;
  }
  $("pass").hidden = true;
  $("status").textContent = statusText(state);
  choices(state);
  drawPicture(state);
  if (state.status === "finished") finished(state);
}

function statusText(state) {
  const you = state.seat === null ? "" : ` You are ${seatName(state, state.seat)} (seat ${state.seat}).`;
  if (state.status === "open") {
    const free = state.seats.map((s, i) => (s.kind === "human" && !s.taken ? i : -1)).filter((i) => i >= 0);
    return `Waiting for people to take seat${free.length > 1 ? "s" : ""} ${free.join(", ")} (from the lobby).${you}`;
  }
  if (state.status === "finished") return `Game over.${you}`;
  if (state.current_player === state.seat) return `Your move.${you}`;
  const who = state.seats[state.current_player];
  return `${seatName(state, state.current_player)} to move${who.kind === "human" ? "" : " (a bot thinking)"}.${you}`;
}

const TERRITORIES = ["Antioch", "Cyprus", "Jerusalem", "Edessa", "Tripoli"];
let lastView = null;

// What a move changed that anyone may see: a territory won, units routed, cards out of play.
function outcome(before, after, state) {
  const said = [];
  if (!before || !after || before.format !== after.format) return said;
  if (before.owners && after.owners) {
    after.owners.forEach((owner, t) => {
      if (owner !== null && before.owners[t] === null) {
        said.push(`${TERRITORIES[t] ?? `territory ${t}`} goes to ${seatName(state, owner)} (victory marker ${after.markers[t]})`);
      }
    });
  }
  if (before.routed && after.routed && after.routed.some((n, s) => n !== before.routed[s])) {
    said.push(`routed: ${after.routed.map((n, s) => `${seatName(state, s)} ${n}`).join(", ")}`);
  }
  if (before.discard && after.discard) {
    const out = after.discard.reduce((a, b) => a + b, 0) - before.discard.reduce((a, b) => a + b, 0);
    if (out > 0) said.push(`${out} card${out > 1 ? "s" : ""} out of play`);
  }
  return said;
}

function narrate(state) {
  const list = $("moves");
  const before = lastView;
  lastView = state.view;
  if (state.last && state.last.ply > narrated) {
    for (const old of list.querySelectorAll(".fresh")) old.classList.remove("fresh");
    const after = state.last.ply === narrated + 1 ? outcome(before, state.view, state) : [];
    const item = el("li", {class: "fresh", "data-ply": String(state.last.ply)},
                    `Move ${state.last.ply + 1}: ${seatName(state, state.last.seat)} ${told(state.last.action)}` +
                    (state.last.detail ? ` (${state.last.detail})` : "") + (after.length ? `: ${after.join("; ")}.` : "."));
    list.prepend(item);
    while (list.children.length > 8) list.lastChild.remove();
    narrated = state.last.ply;
  }
}

function passDevice(state) {
  $("board").replaceChildren();
  $("turn").hidden = true;
  $("turn").dataset.ply = String(state.ply);
  $("pass-text").textContent = `Pass the device to ${seatName(state, shown)}.`;
  $("pass-ok").textContent = `I am ${seatName(state, shown)}: show my hand`;
  $("pass").hidden = false;
  $("pass-ok").focus();
}

// ------------------------------------------------------------------ moves

function split(action) {
  const keys = Object.keys(action).filter((k) => k !== "type");
  const first = keys[0];
  const verb = VERBS[action.type] ?? action.type.replaceAll("_", " ");
  return {
    key: first === undefined ? action.type : `${action.type}|${first}=${action[first]}`,
    label: capital(first === undefined ? verb : `${verb} ${words(action, [first])}`),
    first, value: first === undefined ? undefined : action[first], rest: keys.slice(1), action,
  };
}

function groups(state) {
  const mine = state.status === "playing" && state.seat !== null && state.current_player === state.seat;
  const found = new Map();
  for (const action of mine ? state.legal_actions : []) {
    const part = split(action);
    if (!found.has(part.key)) found.set(part.key, {...part, actions: []});
    found.get(part.key).actions.push(part);
  }
  return found;
}

function choices(state) {
  const picks = $("picks");
  const focused = document.activeElement && $("turn").contains(document.activeElement);
  const found = groups(state);
  $("turn").dataset.ply = String(state.ply);
  $("move-error").hidden = true;
  picks.replaceChildren();
  $("targets").replaceChildren();
  $("targets-title").hidden = true;
  $("turn").hidden = found.size === 0;
  if (pick !== null && !found.has(pick)) pick = null;
  for (const group of found.values()) {
    const button = el("button", {type: "button", "data-pick": group.key, "aria-pressed": String(group.key === pick)}, group.label);
    button.setAttribute("data-actions", JSON.stringify(group.actions.map((part) => part.action)));
    if (group.rest.length === 0) button.setAttribute("data-action", JSON.stringify(group.actions[0].action));
    button.addEventListener("click", () => choosePick(group.key));
    picks.append(button);
  }
  if (pick !== null) targets(found.get(pick));
  else if (found.size > 0 && (focused || document.activeElement === document.body)) picks.firstChild.focus();
}

function choosePick(key) {
  const group = groups(states.get(shown)).get(key);
  if (!group) return;
  if (group.rest.length === 0) { send(group.actions[0].action); return; }
  pick = key;
  for (const button of $("picks").children) button.setAttribute("aria-pressed", String(button.dataset.pick === key));
  targets(group);
  decorate(states.get(shown));
  $("targets").firstChild?.focus();
}

function targets(group, only = null) {
  const box = $("targets");
  box.replaceChildren();
  $("targets-title").hidden = false;
  $("targets-title").textContent = `${group.label}: where?`;
  for (const part of only ?? group.actions) {
    const button = el("button", {type: "button", "data-action": JSON.stringify(part.action)}, capital(words(part.action, part.rest)));
    button.addEventListener("click", () => send(part.action));
    box.append(button);
  }
  const cancel = el("button", {type: "button", "data-cancel": ""}, "Cancel");
  cancel.addEventListener("click", () => { pick = null; choices(states.get(shown)); decorate(states.get(shown)); });
  box.append(cancel);
}

// ------------------------------------------------------------------ the picture

function frontRow(seat) { return seat === 0 ? 2 : 1; }

// The picture's elements an action's value stands for.
function elementsFor(key, value, state) {
  const board = $("board");
  const text = CSS.escape(String(value));
  switch (key) {
    case "card": {
      const hand = board.querySelectorAll(`.od-hand[data-seat="${state.seat}"] [data-card="${text}"]`);
      return [...hand];
    }
    case "territory": return [...board.querySelectorAll(`.od-territory[data-territory="${text}" i]`)];
    case "province": case "from_province": case "to_province":
      return [...board.querySelectorAll(`.sh-province[data-province="${text}"]`)];
    case "column": case "target":
      return [...board.querySelectorAll(`.bp-cell[data-column="${text}"][data-row="${frontRow(key === "target" ? 1 - state.seat : state.seat)}"]`)];
    default: return [];
  }
}

function decorate(state) {
  const board = $("board");
  for (const node of board.querySelectorAll("[data-pick], [data-target], [data-chosen]")) {
    node.removeAttribute("data-pick"); node.removeAttribute("data-target"); node.removeAttribute("data-chosen");
  }
  const found = groups(state);
  if (pick === null) {
    for (const group of found.values()) {
      for (const node of group.first ? elementsFor(group.first, group.value, state) : []) node.setAttribute("data-pick", group.key);
    }
    return;
  }
  const group = found.get(pick);
  for (const node of elementsFor(group.first, group.value, state)) node.setAttribute("data-chosen", "");
  group.actions.forEach((part, index) => {
    for (const key of part.rest) {
      for (const node of elementsFor(key, part.action[key], state)) {
        const old = node.getAttribute("data-target");
        node.setAttribute("data-target", old === null ? String(index) : `${old} ${index}`);
      }
    }
  });
}

function boardClicked(event) {
  const state = states.get(shown);
  if (!state) return;
  const target = event.target.closest("[data-target]");
  if (target && pick !== null) {
    const group = groups(state).get(pick);
    const indexes = [...new Set(target.getAttribute("data-target").split(" ").map(Number))];
    if (indexes.length === 1) send(group.actions[indexes[0]].action);
    else { targets(group, indexes.map((i) => group.actions[i])); $("targets").firstChild.focus(); }
    return;
  }
  const chosen = event.target.closest("[data-pick]");
  if (chosen) choosePick(chosen.getAttribute("data-pick"));
}

function showJust(state) {
  if (!state.last || state.last.ply !== state.ply - 1 || replayPly !== null) return;
  const action = state.last.action;
  for (const key of Object.keys(action)) {
    if (key === "type" || key === "card") continue;
    const seen = key === "column" ? {...state, seat: state.last.seat} : state;
    for (const node of elementsFor(key, action[key], seen)) node.classList.add("just");
  }
}

async function drawPicture(state) {
  const ask = ++drawing;
  const token = shown === null ? null : tokens.get(shown);
  const query = state.status === "finished" && replayPly !== null ? `?ply=${replayPly}` : "";
  let reply;
  try {
    reply = await fetch(`/api/tables/${encodeURIComponent(tableId)}/picture${query}`,
                        {headers: token ? {authorization: `Bearer ${token}`} : {}, cache: "no-store"});
  } catch (problem) { return; }
  if (!reply.ok || ask !== drawing) return;
  const text = await reply.text();
  if (ask !== drawing) return;
  const parsed = new DOMParser().parseFromString(text, "image/svg+xml").documentElement;
  if (parsed.nodeName !== "svg") return;
  const picture = document.importNode(parsed, true);
  picture.removeAttribute("width");
  picture.removeAttribute("height");
  picture.setAttribute("aria-hidden", "true");
  const board = $("board");
  board.replaceChildren(picture);
  board.dataset.ply = String(state.ply);
  board.dataset.shown = query ? String(replayPly) : "now";  // the replay's position, or the game's
  board.setAttribute("aria-label", picture.querySelector("title")?.textContent ?? "the table");
  decorate(state);
  showJust(state);
}

// ------------------------------------------------------------------ the end

async function finished(state) {
  $("end").hidden = false;
  const history = state.view.history ?? [];
  if (result === null) {
    try {
      const reply = await fetch(`/api/tables/${encodeURIComponent(tableId)}/result`);
      if (reply.ok) result = await reply.json();
    } catch (problem) { /* the panel says what it has */ }
  }
  if (result !== null) {
    $("result").textContent = result.winner === null ? "A draw." : `${seatName(state, result.winner)} wins.`;
    $("scores").replaceChildren(...result.scores.map((score, seat) => el("li", {}, `${seatName(state, seat)}: ${score}`)));
    $("hands").replaceChildren(...result.hands.map((hand, seat) =>
      el("li", {"data-seat": String(seat)}, `${seatName(state, seat)}: ${hand.length ? hand.join(", ") : "no card"}`)));
  }
  // the server's save, not the parsed state: JavaScript's numbers would round a 63-bit seed
  $("save").href = `/api/tables/${encodeURIComponent(tableId)}/save`;
  $("save").download = `${state.game}-${state.table}.json`;
  $("replay-ply").textContent = `Showing move ${replayPly ?? history.length} of ${history.length}` +
    (replayPly !== null && replayPly > 0 ? `: ${told(history[replayPly - 1])}` : "");
  if (!reviewAsked) {  // after the end is on screen: the review's chart never delays the page
    reviewAsked = true;
    setTimeout(askReview, 0);
  }
  markReview();
}

// ------------------------------------------------------------------ the review chart

// Each seat's chance to win after every move (GET /api/tables/{id}/review, 202 with its
// progress until the server has computed it), drawn here as SVG: a line per seat with its 95%
// interval as a light band; seats told apart by colour, dash pattern and marker shape.
const SVG = "http://www.w3.org/2000/svg";
const SEAT_STYLES = [
  {colour: "#0072b2", dash: "", marker: "circle"}, {colour: "#d55e00", dash: "8 4", marker: "square"},
  {colour: "#009e73", dash: "2 3", marker: "triangle"}, {colour: "#cc79a7", dash: "10 3 2 3", marker: "diamond"},
  {colour: "#6b4e16", dash: "4 2", marker: "cross"},
];
const CHART = {width: 360, height: 200, left: 36, right: 8, top: 12, bottom: 32};
const TURNING_POINTS = 3;
let review = null;          // the review once ready
let reviewAsked = false;

function svgEl(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

function seatStyle(seat) { return SEAT_STYLES[seat % SEAT_STYLES.length]; }

function marker(seat, x, y) {
  const {colour, marker: shape} = seatStyle(seat);
  const common = {fill: colour, stroke: "#ffffff", "stroke-width": 1, class: "rv-marker", "data-seat": seat};
  const r = 3;
  switch (shape) {
    case "square": return svgEl("rect", {...common, x: x - r, y: y - r, width: 2 * r, height: 2 * r});
    case "triangle": return svgEl("polygon", {...common, points: `${x},${y - r - 1} ${x + r + 1},${y + r} ${x - r - 1},${y + r}`});
    case "diamond": return svgEl("polygon", {...common, points: `${x},${y - r - 1} ${x + r + 1},${y} ${x},${y + r + 1} ${x - r - 1},${y}`});
    case "cross": return svgEl("path", {...common, fill: "none", stroke: colour, "stroke-width": 2,
                                        d: `M${x - r},${y - r}L${x + r},${y + r}M${x - r},${y + r}L${x + r},${y - r}`});
    default: return svgEl("circle", {...common, cx: x, cy: y, r});
  }
}

function percent(chance) { return `${Math.round(chance * 100)}%`; }

async function askReview() {
  let delay = 500;
  for (;;) {
    let reply = null;
    try {
      reply = await fetch(`/api/tables/${encodeURIComponent(tableId)}/review`, {cache: "no-store"});
    } catch (problem) { reply = null; }
    if (reply && reply.status === 200) {
      review = await reply.json();
      $("review-progress").textContent = "";
      $("review-progress").hidden = true;
      drawReview();
      return;
    }
    if (reply && reply.status === 202) {
      const progress = await reply.json();
      $("review-progress").textContent = `reviewing: ${progress.done} of ${progress.positions} positions`;
    } else {
      $("review-progress").textContent = `the review is not ready: asking again in ${(delay / 1000).toFixed(1)} s`;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 1.5, 5000);
  }
}

// The moves after which a seat's chance changed most: [{ply, seat, before, after}], by ply.
function turningPoints(plies) {
  const changes = [];
  for (let ply = 1; ply < plies.length; ply++) {
    let best = null;
    for (const now of plies[ply].chances) {
      const before = plies[ply - 1].chances[now.seat].chance;
      const change = Math.abs(now.chance - before);
      if (change > 0 && (best === null || change > best.change)) best = {ply, seat: now.seat, before, after: now.chance, change};
    }
    if (best !== null) changes.push(best);
  }
  changes.sort((a, b) => b.change - a.change || a.ply - b.ply);
  return changes.slice(0, TURNING_POINTS).sort((a, b) => a.ply - b.ply);
}

function drawReview() {
  const state = states.get(shown);
  if (!review || !state) return;
  const plies = review.plies;
  const seats = plies[0].chances.length;
  const {width, height, left, right, top, bottom} = CHART;
  const wide = width - left - right, high = height - top - bottom;
  const x = (ply) => left + (plies.length > 1 ? (ply / (plies.length - 1)) * wide : 0);
  const y = (chance) => top + (1 - chance) * high;
  const chart = svgEl("svg", {viewBox: `0 0 ${width} ${height}`, class: "rv-chart", "data-positions": plies.length});
  chart.append(svgEl("title", {}, "Each seat's chance to win after every move, with its 95% interval"));
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    chart.append(svgEl("line", {x1: left, x2: width - right, y1: y(tick), y2: y(tick), stroke: "#c9c2b3", "stroke-width": 1}));
    chart.append(svgEl("text", {x: left - 6, y: y(tick) + 4, "text-anchor": "end", "font-size": 11, fill: "#5a5f6b"}, percent(tick)));
  }
  const step = Math.max(1, Math.ceil((plies.length - 1) / 6));
  for (let ply = 0; ply < plies.length; ply += step) {
    chart.append(svgEl("text", {x: x(ply), y: height - bottom + 15, "text-anchor": "middle", "font-size": 11, fill: "#5a5f6b"}, String(ply)));
  }
  chart.append(svgEl("text", {x: left + wide / 2, y: height - 4, "text-anchor": "middle", "font-size": 11, fill: "#5a5f6b"}, "move"));
  const turns = turningPoints(plies);
  for (const turn of turns) {
    chart.append(svgEl("line", {x1: x(turn.ply), x2: x(turn.ply), y1: top, y2: top + high, stroke: "#1f2430",
                                "stroke-width": 1, "stroke-dasharray": "1 3", class: "rv-turn", "data-ply": turn.ply}));
    chart.append(svgEl("text", {x: x(turn.ply), y: top + 9, "text-anchor": "middle", "font-size": 11, fill: "#1f2430"}, "★"));
  }
  chart.append(svgEl("line", {id: "rv-now", y1: top, y2: top + high, stroke: "#1f2430", "stroke-width": 2}));
  for (let seat = 0; seat < seats; seat++) {
    const {colour} = seatStyle(seat);
    const at = plies.map((p) => p.chances[seat]);
    const band = at.map((c, ply) => `${x(ply)},${y(c.high)}`).concat(at.map((c, ply) => `${x(ply)},${y(c.low)}`).reverse());
    chart.append(svgEl("polygon", {points: band.join(" "), fill: colour, "fill-opacity": 0.12, stroke: "none",
                                   class: "rv-band", "data-seat": seat,
                                   "data-lows": at.map((c) => c.low).join(" "), "data-highs": at.map((c) => c.high).join(" ")}));
  }
  for (let seat = 0; seat < seats; seat++) {
    const {colour, dash} = seatStyle(seat);
    const at = plies.map((p) => p.chances[seat]);
    chart.append(svgEl("polyline", {points: at.map((c, ply) => `${x(ply)},${y(c.chance)}`).join(" "), fill: "none",
                                    stroke: colour, "stroke-width": 2, "stroke-dasharray": dash, class: "rv-line",
                                    "data-seat": seat, "data-name": seatName(state, seat),
                                    "data-chances": at.map((c) => c.chance).join(" ")}));
  }
  const history = state.view.history ?? [];
  plies.forEach((p, ply) => {
    const said = p.chances.map((c) => `${seatName(state, c.seat)} ${percent(c.chance)}`).join(", ");
    const what = ply === 0 ? "the deal" : `move ${ply}${history[ply - 1] ? ` (${told(history[ply - 1])})` : ""}`;
    const point = svgEl("g", {class: "rv-ply", "data-ply": ply, tabindex: -1, role: "button",
                              "aria-label": `After ${what}: ${said}. Show it in the replay.`});
    const half = plies.length > 1 ? wide / (plies.length - 1) / 2 : wide / 2;
    point.append(svgEl("rect", {class: "rv-hit", x: x(ply) - half, y: top, width: 2 * half, height: high, fill: "transparent"}));
    for (const c of p.chances) point.append(marker(c.seat, x(ply), y(c.chance)));
    chart.append(point);
  });
  chart.addEventListener("click", (event) => {
    const point = event.target.closest("[data-ply]");
    if (point) replay(Number(point.getAttribute("data-ply")));
  });
  chart.addEventListener("keydown", chartKey);
  $("review").replaceChildren(chart);
  $("review-legend").replaceChildren(...Array.from({length: seats}, (_, seat) => {
    const {colour, dash} = seatStyle(seat);
    const sample = svgEl("svg", {viewBox: "0 0 36 12", width: 36, height: 12, "aria-hidden": "true"});
    sample.append(svgEl("line", {x1: 0, x2: 36, y1: 6, y2: 6, stroke: colour, "stroke-width": 2, "stroke-dasharray": dash}),
                  marker(seat, 18, 6));
    const item = el("li", {"data-seat": String(seat)});
    item.append(sample, document.createTextNode(` ${seatName(state, seat)}`));
    return item;
  }));
  $("review-turns").textContent = turns.length === 0 ? "" : "Turning points (★): " + turns.map((t) =>
    `move ${t.ply}, ${seatName(state, t.seat)} ${percent(t.before)} → ${percent(t.after)}`).join("; ") + ".";
  markReview();
}

// The replay's ply on the chart: a line, the point marked current and the one to Tab to.
function markReview() {
  const chart = $("review").querySelector("svg");
  if (!chart || !review) return;
  const current = replayPly ?? review.plies.length - 1;
  const focused = chart.contains(document.activeElement);
  for (const point of chart.querySelectorAll(".rv-ply")) {
    const here = Number(point.getAttribute("data-ply")) === current;
    point.setAttribute("tabindex", here ? "0" : "-1");
    if (here) point.setAttribute("data-current", "");
    else point.removeAttribute("data-current");
    if (here && focused) point.focus();
  }
  const {width, left, right} = CHART;
  const at = left + (review.plies.length > 1 ? (current / (review.plies.length - 1)) * (width - left - right) : 0);
  chart.querySelector("#rv-now").setAttribute("x1", String(at));
  chart.querySelector("#rv-now").setAttribute("x2", String(at));
  chart.setAttribute("data-current", String(current));
}

function chartKey(event) {
  const point = event.target.closest?.("[data-ply]");
  if (!point) return;
  const ply = Number(point.getAttribute("data-ply"));
  const moves = {ArrowLeft: -1, ArrowRight: 1, ArrowDown: -1, ArrowUp: 1};
  if (event.key === "Enter" || event.key === " ") { event.preventDefault(); replay(ply); return; }
  if (!(event.key in moves) && event.key !== "Home" && event.key !== "End") return;
  event.preventDefault();
  const last = review.plies.length - 1;
  const to = event.key === "Home" ? 0 : event.key === "End" ? last : Math.max(0, Math.min(last, ply + moves[event.key]));
  const next = $("review").querySelector(`.rv-ply[data-ply="${to}"]`);
  for (const other of $("review").querySelectorAll(".rv-ply")) other.setAttribute("tabindex", other === next ? "0" : "-1");
  next.focus();
}

function lastPly() { return (states.get(shown)?.view.history ?? []).length; }

function replay(to) {
  const state = states.get(shown);
  if (!state || state.status !== "finished") return;
  const last = (state.view.history ?? []).length;
  const ply = Math.max(0, Math.min(last, to));
  replayPly = ply === last ? null : ply;
  drawPicture(state);
  finished(state);
}

function start() {
  $("board").addEventListener("click", boardClicked);
  $("pass-ok").addEventListener("click", () => { revealed = shown; update(); });
  $("replay-start").addEventListener("click", () => replay(0));
  $("replay-back").addEventListener("click", () => replay((replayPly ?? lastPly()) - 1));
  $("replay-next").addEventListener("click", () => replay((replayPly ?? lastPly()) + 1));
  $("replay-end").addEventListener("click", () => replay(Infinity));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && pick !== null) { pick = null; choices(states.get(shown)); decorate(states.get(shown)); }
  });
  if (tokens.size === 0) connect(null);
  for (const seat of tokens.keys()) connect(seat);
}

start();
