// The lobby: create a table, join a free seat, watch a table. Every text from the server is
// put in the page with textContent (never as HTML).
"use strict";

const $ = (id) => document.getElementById(id);

const KINDS = [["human", "Person"], ["random", "Bot: random (weakest)"], ["greedy", "Bot: greedy"],
               ["montecarlo", "Bot: Monte Carlo (strongest)"]];
let games = [];

function el(tag, attrs = {}, text = null) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== null) node.textContent = text;
  return node;
}

async function api(method, path, body) {
  const reply = await fetch(path, {method, headers: body ? {"content-type": "application/json"} : {},
                                   body: body ? JSON.stringify(body) : undefined});
  const data = await reply.json().catch(() => ({}));
  if (!reply.ok) {
    const detail = Array.isArray(data.detail) ? data.detail.map((d) => d.msg).join("; ") : data.detail;
    throw new Error(detail || `the server answered ${reply.status}`);
  }
  return data;
}

function seatRows() {
  const box = document.getElementById("seats");
  const count = Number(document.getElementById("players").value);
  while (box.children.length > count) box.lastChild.remove();
  for (let seat = box.children.length; seat < count; seat++) {
    const row = el("div", {class: "seat-row"});
    row.append(el("label", {for: `kind-${seat}`}, `Seat ${seat}`));
    const kind = el("select", {id: `kind-${seat}`, "data-seat": String(seat)});
    for (const [value, label] of KINDS) kind.append(el("option", {value}, label));
    kind.value = seat === 0 ? "human" : "random";
    row.append(kind);
    const limit = el("input", {id: `limit-${seat}`, type: "number", min: "0.1", max: "30", step: "0.1", value: "1",
                               "aria-label": `Seat ${seat}: seconds the Monte Carlo bot thinks`, hidden: ""});
    kind.addEventListener("change", () => { limit.hidden = kind.value !== "montecarlo"; });
    row.append(limit);
    box.append(row);
  }
}

// The game's rules that take a plain value (a choice, a number, a yes or no), with the default
// rules' values; the others keep their defaults. The server checks them and says what is wrong.
function variantRows(game) {
  const box = $("variant");
  box.replaceChildren();
  for (const [key, value] of Object.entries(game.rules)) {
    if (key === "players" || value === null || typeof value === "object") continue;
    const row = el("div", {class: "seat-row"});
    const id = `rule-${key}`;
    row.append(el("label", {for: id}, key.replaceAll("_", " ")));
    const input = typeof value === "boolean" ? el("input", {id, type: "checkbox", "data-rule": key})
      : el("input", {id, type: typeof value === "number" ? "number" : "text", "data-rule": key, value: String(value)});
    if (typeof value === "boolean") input.checked = value;
    row.append(input);
    box.append(row);
  }
}

function rulesOf(game) {
  const rules = Object.assign({}, game.rules);
  for (const input of document.querySelectorAll("#variant [data-rule]")) {
    const key = input.dataset.rule;
    rules[key] = input.type === "checkbox" ? input.checked : input.type === "number" ? Number(input.value) : input.value;
  }
  return rules;
}

function gameChanged() {
  const game = games.find((g) => g.name === document.getElementById("game").value);
  const players = document.getElementById("players");
  players.min = String(game.min_players);
  players.max = String(game.max_players);
  players.value = String(game.rules.players ?? game.min_players);
  players.disabled = game.min_players === game.max_players;
  variantRows(game);
  seatRows();
}

async function create(event) {
  event.preventDefault();
  const error = document.getElementById("create-error");
  error.hidden = true;
  try {
    const game = games.find((g) => g.name === document.getElementById("game").value);
    const count = Number(document.getElementById("players").value);
    const rules = rulesOf(game);
    if ("players" in rules) rules.players = count;
    const seats = [];
    for (let seat = 0; seat < count; seat++) {
      const kind = document.getElementById(`kind-${seat}`).value;
      const request = {kind};
      if (kind === "montecarlo") request.time_limit = Number(document.getElementById(`limit-${seat}`).value);
      seats.push(request);
    }
    const delay = Number(document.getElementById("delay").value);
    const table = await api("POST", "/api/tables", {game: game.name, rules, seats, bot_delay: delay});
    const name = document.getElementById("name").value.trim() || "Player";
    const people = seats.map((s, i) => (s.kind === "human" ? i : -1)).filter((i) => i >= 0);
    const hotseat = document.getElementById("hotseat").checked;
    const joined = [];
    for (const seat of hotseat ? people : people.slice(0, 1)) {
      const reply = await api("POST", `/api/tables/${table.id}/seats/${seat}`,
                              {name: people.length > 1 && hotseat ? `${name} ${seat}` : name});
      joined.push(`s${seat}=${encodeURIComponent(reply.token)}`);
    }
    location.assign(`/tables/${encodeURIComponent(table.id)}#${joined.join("&")}`);
  } catch (problem) {
    error.textContent = problem.message;
    error.hidden = false;
  }
}

async function join(table, seat) {
  const name = document.getElementById("name").value.trim() || "Player";
  try {
    const reply = await api("POST", `/api/tables/${table}/seats/${seat}`, {name});
    location.assign(`/tables/${encodeURIComponent(table)}#s${seat}=${encodeURIComponent(reply.token)}`);
  } catch (problem) {
    alert(problem.message);
  }
}

function seatsText(table) {
  return table.seats.map((s, i) => `${i}: ${s.name ?? "free"}${s.kind === "human" ? "" : " (bot)"}`).join(", ");
}

async function refresh() {
  let tables = [];
  try { tables = await api("GET", "/api/tables"); } catch (problem) { return; }
  for (const [id, status] of [["open", "open"], ["playing", "playing"]]) {
    const body = document.querySelector(`#${id} tbody`);
    body.replaceChildren();
    const shown = tables.filter((t) => t.status === status);
    document.getElementById(`${id}-empty`).hidden = shown.length > 0;
    for (const table of shown) {
      const row = el("tr", {"data-table": table.id});
      row.append(el("td", {}, table.game), el("td", {}, seatsText(table)), el("td", {}, `move ${table.ply}`));
      const cell = el("td");
      if (status === "open") {
        table.seats.forEach((seat, index) => {
          if (seat.kind === "human" && !seat.taken) {
            const button = el("button", {type: "button"}, `Join seat ${index}`);
            button.addEventListener("click", () => join(table.id, index));
            cell.append(button);
          }
        });
      } else {
        cell.append(el("a", {href: `/tables/${encodeURIComponent(table.id)}`}, "Watch"));
      }
      row.append(cell);
      body.append(row);
    }
  }
}

async function start() {
  games = await api("GET", "/api/games");
  const select = document.getElementById("game");
  for (const game of games) select.append(el("option", {value: game.name}, game.title));
  select.addEventListener("change", gameChanged);
  document.getElementById("players").addEventListener("input", seatRows);
  document.getElementById("create").addEventListener("submit", create);
  gameChanged();
  await refresh();
  setInterval(refresh, 3000);
}

start();
