// entropy3d share: draws the table, the miniatures and a replay's actions with three.js (the
// global THREE). All data comes from the JSON block written by entropy3d/share; units are table
// inches (x right, y away, z up), headings degrees counter-clockwise from +x, times seconds.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("entropy3d-data").textContent);
  const steps = data.steps;
  const HOLD_S = 1.5;  // pause after each action while playing, to read its words
  const TEMPLATE_COLOURS = { tight: 0xff6650, medium: 0xffcc33, wide: 0x66e6ff };

  // ---- meshes --------------------------------------------------------------------------------
  function bytes(b64) {
    const text = atob(b64), out = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out.buffer;
  }
  function positionsOf(b64) {
    const quantised = new Int16Array(bytes(b64));
    const positions = new Float32Array(quantised.length);
    for (let i = 0; i < quantised.length; i++) positions[i] = quantised[i] * data.q;
    return positions;
  }
  function geometry(packed) {
    const shape = new THREE.BufferGeometry();
    shape.setAttribute("position", new THREE.BufferAttribute(positionsOf(packed.positions), 3));
    const indices = packed.wide ? new Uint32Array(bytes(packed.indices)) : new Uint16Array(bytes(packed.indices));
    shape.setIndex(new THREE.BufferAttribute(indices, 1));
    shape.computeBoundingSphere();
    return shape;
  }
  // triangles whose light is baked into their corners' colours (entropy3d/share/payload.py: the
  // film's light, worked out once); ``painted``: texture coordinates from plan position, as the
  // film maps its painted images (a point x, y inches samples x / width, y / depth)
  function soup(packed, painted) {
    const shape = new THREE.BufferGeometry();
    const positions = positionsOf(packed.positions);
    shape.setAttribute("position", new THREE.BufferAttribute(positions, 3));
    shape.setAttribute("color", new THREE.BufferAttribute(new Uint8Array(bytes(packed.colours)), 3, true));
    if (painted) {
      const uv = new Float32Array(positions.length / 3 * 2);
      for (let k = 0; k < uv.length / 2; k++) {
        uv[2 * k] = positions[3 * k] / table.width;
        uv[2 * k + 1] = positions[3 * k + 1] / table.depth;
      }
      shape.setAttribute("uv", new THREE.BufferAttribute(uv, 2));
    }
    shape.computeBoundingSphere();
    return shape;
  }
  function material(colour, extra) {  // what moves or is not painted: lit by the film's lights
    return new THREE.MeshStandardMaterial(Object.assign({ color: colour, flatShading: true, roughness: 1.0,
                                                          metalness: 0.0 }, extra || {}));
  }

  const view = document.getElementById("view");
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  view.appendChild(renderer.domElement);

  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0x2a2f36);
  // the film's sun, fill and ambient light (entropy3d/look/light.py), for what is lit as it moves
  const rgb = (c) => new THREE.Color(c[0], c[1], c[2]);
  scene.add(new THREE.AmbientLight(rgb(data.light.ambient), 1.0));
  for (const name of ["sun", "fill"]) {
    const lamp = new THREE.DirectionalLight(rgb(data.light[name].rgb), 1.0);
    lamp.position.fromArray(data.light[name].direction).multiplyScalar(100);
    scene.add(lamp);
  }

  const table = data.table;
  // the table's paint, the film's two plan images: row 0 of each is y = 0 (so no flip)
  const painting = [];
  const paint = {};
  for (const name of ["ground", "raised"]) {
    const image = new Image();
    const texture = new THREE.Texture(image);
    texture.flipY = false;
    texture.anisotropy = renderer.capabilities.getMaxAnisotropy();
    painting.push(new Promise((resolve) => {
      image.onload = () => { texture.needsUpdate = true; resolve(); };
      image.onerror = () => resolve();  // drawn unpainted rather than not at all
    }));
    image.src = table.paint[name];
    paint[name] = texture;
  }
  for (const name of ["ground", "raised"]) {
    if (table.painted[name]) {
      scene.add(new THREE.Mesh(soup(table.painted[name], true),
                               new THREE.MeshBasicMaterial({ map: paint[name], vertexColors: true })));
    }
  }
  if (table.baked) scene.add(new THREE.Mesh(soup(table.baked, false), new THREE.MeshBasicMaterial({ vertexColors: true })));
  if (table.bands) {  // a cliff edge's hazard band, a hair over the ground
    const bands = new THREE.Mesh(soup(table.bands, false), new THREE.MeshBasicMaterial({
      vertexColors: true, polygonOffset: true, polygonOffsetFactor: -4, polygonOffsetUnits: -16 }));
    bands.renderOrder = 4;
    scene.add(bands);
  }
  for (const layer of table.ground) {  // unpainted table-top layers a hair apart: offset in depth
    const mesh = new THREE.Mesh(geometry(layer.mesh), material(layer.colour, {
      polygonOffset: true, polygonOffsetFactor: -layer.layer, polygonOffsetUnits: -4 * layer.layer }));
    mesh.renderOrder = layer.layer;
    scene.add(mesh);
  }
  for (const solid of table.solids) scene.add(new THREE.Mesh(geometry(solid.mesh), material(solid.colour)));
  const scenery = {};
  for (const piece of table.destructibles) {
    const pivot = new THREE.Group();  // turns about the piece's centre (EC-DEST-4 moves)
    pivot.position.set(piece.centre[0], piece.centre[1], 0);
    const mesh = new THREE.Mesh(geometry(piece.mesh), material(piece.colour));
    mesh.position.set(-piece.centre[0], -piece.centre[1], 0);
    pivot.add(mesh);
    scene.add(pivot);
    scenery[piece.id] = { pivot: pivot, centre: piece.centre };
  }

  // ---- miniatures ----------------------------------------------------------------------------
  const miniatures = {}, bikeShapes = {}, baseShapes = {};
  for (const model of data.miniatures.models) {
    const group = new THREE.Group();
    const gang = new THREE.Color(model.colour);
    baseShapes[model.base] = baseShapes[model.base] || geometry(data.miniatures.bases[model.base]);
    group.add(new THREE.Mesh(baseShapes[model.base], material(gang.clone().multiplyScalar(0.4))));
    for (const [k, part] of data.miniatures.bikes[model.bike].entries()) {
      const key = model.bike + "/" + k;
      bikeShapes[key] = bikeShapes[key] || geometry(part.mesh);
      group.add(new THREE.Mesh(bikeShapes[key], material(part.colour === null ? gang : part.colour)));
    }
    scene.add(group);
    const tag = document.createElement("div");
    tag.className = "tag";
    tag.textContent = model.name;
    // the name in the gang's colour lightened halfway to white (Hades' dark red on the dark tag
    // was hard to read), the gang's own colour as the tag's edge
    const light = model.colour.match(/[0-9a-f]{2}/gi).map(h => Math.round(parseInt(h, 16) * 0.5 + 127.5));
    tag.style.color = "rgb(" + light.join(", ") + ")";
    tag.style.borderLeft = "3px solid " + model.colour;
    view.appendChild(tag);
    miniatures[model.id] = { group: group, tag: tag };
  }

  // ---- a mission's NPCs: no miniature of their own, a peg where one stands and a tag by name --
  // (Jailbreak's prisoner, Rescue & Survive's contacts: entropy3d.look.npc_marks), the tag over
  // its holder while carried, over the jail's roof while locked in
  const npcs = {};
  function npcOf(mark) {
    if (!npcs[mark.id]) {
      const peg = new THREE.Mesh(new THREE.CylinderGeometry(0.3, 0.3, 1.2, 12), material(mark.colour));
      peg.rotation.x = Math.PI / 2;  // the cylinder's axis up the table's z
      scene.add(peg);
      const tag = document.createElement("div");
      tag.className = "tag npc";
      tag.textContent = mark.label;
      const light = mark.colour.match(/[0-9a-f]{2}/gi).map(h => Math.round(parseInt(h, 16) * 0.5 + 127.5));
      tag.style.color = "rgb(" + light.join(", ") + ")";  // as a rider's tag: readable on the dark backing
      tag.style.borderLeft = "3px solid " + mark.colour;
      view.appendChild(tag);
      npcs[mark.id] = { peg: peg, tag: tag, mark: mark };
    }
    return npcs[mark.id];
  }
  function placeNpcs(marks) {
    const shown = new Set();
    for (const mark of marks || []) {
      const npc = npcOf(mark);
      npc.mark = mark;
      npc.tag.textContent = mark.label;
      npc.peg.visible = !mark.holder && !/locked in$/.test(mark.label);
      npc.peg.position.set(mark.at[0], mark.at[1], mark.at[2] + 0.6);
      shown.add(mark.id);
    }
    for (const [id, npc] of Object.entries(npcs)) {
      if (!shown.has(id)) { npc.peg.visible = false; npc.mark = null; }
    }
  }

  // ---- camera: orbit about a target, z up ----------------------------------------------------
  // one column (a phone upright), as page.html's style lays the page out
  const COLUMN = window.matchMedia("(max-aspect-ratio: 1/1), (max-width: 599.98px)");
  const camera = new THREE.PerspectiveCamera(40, 1, 0.5, 2000);
  camera.up.set(0, 0, 1);
  const size = Math.max(table.width, table.depth);
  const hull = table.hull.map((p) => new THREE.Vector3(p[0], p[1], p[2]));  // around all of the table
  // from the south, as a player stands at the table; on a phone upright a little higher, which
  // shows the streets between the buildings and makes the table's picture taller in the tall screen
  const HOME = { yaw: 0, pitch: 50, columnPitch: 60 };
  const homePitch = () => (COLUMN.matches ? HOME.columnPitch : HOME.pitch);
  const orbit = { target: new THREE.Vector3(table.width / 2, table.depth / 2, 0), distance: 1.5 * size,
                  yaw: HOME.yaw, pitch: homePitch() };
  let framed = "home";  // the view the page chose ("home", "top"), kept framed as the window changes; null once moved
  let saved = null;  // the view to go back to when leaving the top-down view

  function aim() {
    const yaw = THREE.MathUtils.degToRad(orbit.yaw), pitch = THREE.MathUtils.degToRad(orbit.pitch);
    camera.position.set(Math.sin(yaw) * Math.cos(pitch), -Math.cos(yaw) * Math.cos(pitch), Math.sin(pitch))
      .multiplyScalar(orbit.distance).add(orbit.target);
    camera.lookAt(orbit.target);
    camera.updateMatrixWorld();
  }
  function placeCamera() { aim(); redraw(); }
  const screen = new THREE.Vector3();
  function projected(point, width, height) {  // a point's place in a view width x height, pixels
    screen.copy(point).project(camera);
    return [(screen.x + 1) / 2 * width, (1 - screen.y) / 2 * height];
  }
  function hullBox(width, height) {  // the box on screen around the whole table, pixels
    const box = { left: Infinity, top: Infinity, right: -Infinity, bottom: -Infinity };
    for (const point of hull) {
      const [x, y] = projected(point, width, height);
      box.left = Math.min(box.left, x); box.right = Math.max(box.right, x);
      box.top = Math.min(box.top, y); box.bottom = Math.max(box.bottom, y);
    }
    return box;
  }
  // the orbit that sees the whole table from (yaw, pitch) as large as it fits in ``rect`` (pixels
  // of a view width x height), centred in it: the camera closes in or backs off and slides
  // across the view until the table's box on screen fills the rect less a margin
  function frame(yaw, pitch, rect, width, height) {
    Object.assign(orbit, { target: new THREE.Vector3(table.width / 2, table.depth / 2, 0), distance: 1.5 * size,
                           yaw: yaw, pitch: pitch });
    const margin = Math.max(4, 0.015 * Math.min(rect.right - rect.left, rect.bottom - rect.top));
    const wide = rect.right - rect.left - 2 * margin, high = rect.bottom - rect.top - 2 * margin;
    const tan = Math.tan(THREE.MathUtils.degToRad(camera.fov / 2));
    const right = new THREE.Vector3(), up = new THREE.Vector3();
    for (let k = 0; k < 60; k++) {
      aim();
      const box = hullBox(width, height);
      const scale = Math.max((box.right - box.left) / wide, (box.bottom - box.top) / high);
      const dx = (box.left + box.right - rect.left - rect.right) / 2, dy = (box.top + box.bottom - rect.top - rect.bottom) / 2;
      if (Math.abs(scale - 1) < 1e-4 && Math.abs(dx) < 0.05 && Math.abs(dy) < 0.05) break;
      const inches = 2 * orbit.distance * tan / height;  // a pixel at the target's depth
      right.setFromMatrixColumn(camera.matrixWorld, 0);
      up.setFromMatrixColumn(camera.matrixWorld, 1);
      orbit.target.addScaledVector(right, dx * inches).addScaledVector(up, -dy * inches);
      orbit.distance *= scale;
    }
    // the same view, orbiting about the point of the table top at its middle
    aim();
    const ahead = camera.getWorldDirection(new THREE.Vector3());
    if (ahead.z < -1e-3) {
      const along = -orbit.target.z / ahead.z;
      orbit.target.addScaledVector(ahead, along);
      orbit.distance = Math.max(1, orbit.distance + along);
    }
  }
  // the part of the view no panel covers: on a wide window the title stands over the view's top
  // and the bar over its foot; in one column (a phone) nothing does
  function freeRect() {
    const v = view.getBoundingClientRect();
    const title = document.getElementById("top").getBoundingClientRect();
    const bar = document.getElementById("bar").getBoundingClientRect();
    const across = (r) => r.width > 0 && r.left < v.right && v.left < r.right;
    let top = 0, bottom = v.height;
    if (across(title) && title.top < v.top + v.height / 3 && title.bottom > v.top) top = title.bottom - v.top;
    if (across(bar) && bar.bottom > v.bottom - v.height / 3 && bar.top < v.bottom) bottom = bar.top - v.top;
    return { left: 0, top: top, right: v.width, bottom: Math.max(bottom, top + 1) };
  }
  function reframe() {
    const [yaw, pitch] = framed === "top" ? [0, 89.9] : [HOME.yaw, homePitch()];
    frame(yaw, pitch, freeRect(), view.clientWidth, Math.max(1, view.clientHeight));
  }
  function topDown() {
    if (saved) { Object.assign(orbit, saved); framed = saved.framed; saved = null; placeCamera(); return; }
    saved = { target: orbit.target.clone(), distance: orbit.distance, yaw: orbit.yaw, pitch: orbit.pitch, framed: framed };
    framed = "top";  // the whole table top from above, in the band between the title and the bar
    reframe();
    placeCamera();
  }
  function pan(dx, dy) {
    const scale = orbit.distance * 2 * Math.tan(THREE.MathUtils.degToRad(camera.fov / 2)) / view.clientHeight;
    const right = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 0);
    const ahead = new THREE.Vector3().crossVectors(camera.up, right).normalize();
    orbit.target.addScaledVector(right, -dx * scale).addScaledVector(ahead, dy * scale);
  }
  // mouse: drag orbits, right- or shift-drag pans, the wheel zooms; touch: one finger orbits,
  // two fingers pinch to zoom and move together to pan
  const touches = new Map();
  let drag = null, pinch = null;
  const canvas = renderer.domElement;
  function zoom(factor) {
    orbit.distance = Math.min(4 * size, Math.max(2, orbit.distance * factor));
  }
  function spread() {
    const [a, b] = [...touches.values()];
    return { d: Math.hypot(a.x - b.x, a.y - b.y), x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  }
  canvas.addEventListener("contextmenu", (e) => e.preventDefault());
  canvas.addEventListener("pointerdown", (e) => {
    touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
    framed = null;
    drag = { x: e.clientX, y: e.clientY, pan: e.button === 2 || e.shiftKey };
    pinch = touches.size === 2 ? spread() : null;
    canvas.setPointerCapture(e.pointerId);
  });
  const release = (e) => { touches.delete(e.pointerId); drag = null; pinch = null; };
  canvas.addEventListener("pointerup", release);
  canvas.addEventListener("pointercancel", release);
  canvas.addEventListener("pointermove", (e) => {
    if (touches.has(e.pointerId)) touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
    saved = null;
    if (pinch && touches.size === 2) {
      const now = spread();
      if (now.d > 0 && pinch.d > 0) zoom(pinch.d / now.d);
      pan(now.x - pinch.x, now.y - pinch.y);
      pinch = now;
    } else if (drag) {
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      drag.x = e.clientX; drag.y = e.clientY;
      if (drag.pan) pan(dx, dy);
      else {
        orbit.yaw -= dx * 0.3;
        orbit.pitch = Math.min(89.9, Math.max(5, orbit.pitch + dy * 0.3));
      }
    } else return;
    placeCamera();
  });
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    framed = null;
    saved = null;
    zoom(Math.exp(e.deltaY * 0.001));
    placeCamera();
  }, { passive: false });

  // ---- overlays ------------------------------------------------------------------------------
  const overlays = { trajectory: new THREE.Group(), templates: new THREE.Group(), sight: new THREE.Group() };
  for (const group of Object.values(overlays)) scene.add(group);
  function line(points, colour) {
    const shape = new THREE.BufferGeometry().setFromPoints(points.map((p) => new THREE.Vector3(p[0], p[1], p[2])));
    const drawn = new THREE.Line(shape, new THREE.LineBasicMaterial({ color: colour, depthTest: false }));
    drawn.renderOrder = 10;
    return drawn;
  }
  function clear(group) {
    for (const child of [...group.children]) { child.geometry.dispose(); child.material.dispose(); group.remove(child); }
  }
  function drawOverlays(step) {
    for (const group of Object.values(overlays)) clear(group);
    if (!step) return;
    if (step.trajectory.length > 1) {
      const path = new THREE.CatmullRomCurve3(step.trajectory.map((r) => new THREE.Vector3(r[1], r[2], r[3] + 0.15)));
      const tube = new THREE.Mesh(new THREE.TubeGeometry(path, 4 * step.trajectory.length, 0.07, 6),
                                  new THREE.MeshBasicMaterial({ color: 0xffffff, depthTest: false }));
      tube.renderOrder = 10;  // drawn over the scenery, like every overlay
      overlays.trajectory.add(tube);
    }
    const start = step.poses[step.model];  // the templates as laid at the action's start
    overlays.templates.position.set(start[0], start[1], 0);
    overlays.templates.rotation.set(0, 0, THREE.MathUtils.degToRad(start[3]));
    for (const [template, points] of data.templates) {
      overlays.templates.add(line(points.map((p) => [p[0], p[1], start[2] + p[2]]), TEMPLATE_COLOURS[template]));
    }
    for (const sight of step.sight) overlays.sight.add(line([sight.from, sight.to], sight.visible ? 0x33ff55 : 0xff3333));
  }
  const toggles = { trajectory: "show-trajectory", templates: "show-templates", sight: "show-sight" };
  function applyToggles() {
    for (const [name, id] of Object.entries(toggles)) overlays[name].visible = document.getElementById(id).checked;
    redraw();
  }
  for (const id of Object.values(toggles)) document.getElementById(id).addEventListener("change", applyToggles);

  // ---- timeline ------------------------------------------------------------------------------
  const timeline = { index: -1, t: 0, playing: false, hold: 0 };
  function duration(step) { return step.trajectory.length ? step.trajectory[step.trajectory.length - 1][0] : 0; }
  function poseAt(step, t) {
    const rows = step.trajectory;
    if (!rows.length || t >= duration(step)) return step.after;
    let k = 1;
    while (k < rows.length - 1 && rows[k][0] < t) k++;
    const a = rows[k - 1], b = rows[k], f = b[0] > a[0] ? Math.min(1, Math.max(0, (t - a[0]) / (b[0] - a[0]))) : 1;
    return [1, 2, 3, 4].map((c) => a[c] + (b[c] - a[c]) * f);
  }
  function place(modelId, pose) {
    const mini = miniatures[modelId];
    mini.group.visible = true;
    mini.group.position.set(pose[0], pose[1], pose[2]);
    mini.group.rotation.set(0, 0, THREE.MathUtils.degToRad(pose[3]));
  }
  function knockedTo(rows, t, ended) {  // a knocked piece's (dx, dy) t ride seconds in (EC-DEST-4)
    if (ended || t >= rows[rows.length - 1][0]) return rows[rows.length - 1].slice(1);
    if (t <= rows[0][0]) return rows[0].slice(1);
    let k = 1;
    while (rows[k][0] < t) k++;
    const a = rows[k - 1], b = rows[k], f = (t - a[0]) / (b[0] - a[0]);
    return [a[1] + (b[1] - a[1]) * f, a[2] + (b[2] - a[2]) * f];
  }
  function placeScenery(moves, knocks, t, ended) {
    for (const [id, piece] of Object.entries(scenery)) {
      let move = moves[id] || [0, 0, 0, false];
      if (knocks && knocks[id]) move = [...knockedTo(knocks[id], t, ended), move[2], false];
      piece.pivot.position.set(piece.centre[0] + move[0], piece.centre[1] + move[1], 0);
      piece.pivot.rotation.set(0, 0, THREE.MathUtils.degToRad(move[2]));
      piece.pivot.visible = !move[3];
    }
  }
  function showStart() {
    for (const model of data.miniatures.models) {
      const pose = data.start[model.id];
      if (pose) place(model.id, pose); else miniatures[model.id].group.visible = false;
    }
    placeScenery({});
    placeNpcs(data.npcs);
  }
  function text(step) {
    document.getElementById("title").textContent = step ? step.title
      : (steps.length ? "Starting positions: " + steps.length + " actions; press play or step through them" : "");
    document.getElementById("story").classList.toggle("empty", !steps.length);
    const lines = document.getElementById("lines");
    lines.replaceChildren();
    const row = (sentence, detail) => {
      const div = document.createElement("div");
      if (sentence) div.append(sentence + " ");
      if (detail) { const small = document.createElement("small"); small.textContent = detail; div.append(small); }
      lines.append(div);
    };
    for (const [sentence, detail] of step ? step.lines : []) row(sentence, detail);
    const sights = step ? step.sight : [];
    // one reason for every line (a rider with no gun): said once, under them, not on each
    const shared = sights.length > 1 && sights.every((s) => s.no_shot && s.no_shot === sights[0].no_shot)
      ? sights[0].no_shot : "";
    for (const sight of sights) {
      row("", "sight to " + data.names[sight.target] + ": top-down " + (sight.visible ? "clear" : "blocked")
        + ", true LOS " + sight.percent + "% visible"
        + (sight.can_shoot ? ", can shoot" : sight.no_shot && !shared ? ", no shot: " + sight.no_shot : ""));
    }
    if (shared) row("", "no shot at any: " + shared);
    if (data.end && step && timeline.index === steps.length - 1) {  // the last action: how the game ended
      const end = document.createElement("div");
      end.className = "end";
      const title = document.createElement("b");
      title.textContent = (data.end.cut_short ? "" : "Game over: ") + data.end.title;
      end.append(title);
      lines.append(end);
      for (const line of data.end.lines) row(line, "");
    }
    document.getElementById("counter").textContent = (timeline.index + 1) + " / " + steps.length;
    document.getElementById("slider").value = timeline.index + 1;
  }
  function show() {
    const step = steps[timeline.index];
    if (!step) { showStart(); drawOverlays(null); text(null); redraw(); return; }
    for (const model of data.miniatures.models) {
      const pose = step.poses[model.id];
      if (pose) place(model.id, pose); else miniatures[model.id].group.visible = false;
    }
    const ended = timeline.t >= duration(step);
    if (ended && step.out) miniatures[step.model].group.visible = false;
    else place(step.model, poseAt(step, timeline.t));
    if (ended) for (const id of step.taken_out || []) miniatures[id].group.visible = false;  // shot, tagged
    placeScenery(step.scenery, step.knocks, timeline.t, ended);
    placeNpcs(step.npcs);
    if (timeline.drawn !== timeline.index) { drawOverlays(step); text(step); timeline.drawn = timeline.index; }
    redraw();
  }
  function goTo(index, atEnd) {
    timeline.index = Math.max(-1, Math.min(steps.length - 1, index));
    const step = steps[timeline.index];
    timeline.t = step && atEnd ? duration(step) : 0;
    timeline.hold = 0;
    show();
  }
  function setPlaying(on) {
    timeline.playing = on && steps.length > 0;
    document.getElementById("play").innerHTML = timeline.playing ? "&#9646;&#9646; pause" : "&#9654; play";
    if (timeline.playing) {
      if (timeline.index >= steps.length - 1 && timeline.t >= duration(steps[steps.length - 1])) goTo(-1, false);
      last = performance.now();
      requestAnimationFrame(tick);
    }
  }
  let last = 0;
  function tick(now) {
    if (!timeline.playing) return;
    const dt = Math.min(0.1, (now - last) / 1000);
    last = now;
    const step = steps[timeline.index];
    if (!step) goTo(0, false);
    else if (timeline.t < duration(step)) { timeline.t = Math.min(duration(step), timeline.t + dt); show(); }
    else if ((timeline.hold += dt) >= HOLD_S) {
      if (timeline.index < steps.length - 1) goTo(timeline.index + 1, false);
      else { setPlaying(false); return; }
    }
    requestAnimationFrame(tick);
  }
  const slider = document.getElementById("slider");
  slider.max = steps.length;
  slider.addEventListener("input", () => { setPlaying(false); goTo(Number(slider.value) - 1, true); });
  document.getElementById("prev").addEventListener("click", () => { setPlaying(false); goTo(timeline.index - 1, true); });
  document.getElementById("next").addEventListener("click", () => { setPlaying(false); goTo(timeline.index + 1, true); });
  document.getElementById("play").addEventListener("click", () => setPlaying(!timeline.playing));
  document.getElementById("topdown").addEventListener("click", topDown);
  if (!steps.length) {  // a table without a replay: nothing to play, nothing to overlay
    for (const id of ["prev", "play", "next", "slider", "counter", "replay-keys"]) document.getElementById(id).hidden = true;
    for (const id of Object.values(toggles)) document.getElementById(id).parentElement.hidden = true;
  }
  // a rulebook whose figures pivot has no turning templates to lay
  if (!data.templates.length) document.getElementById("show-templates").parentElement.hidden = true;
  const keys = { " ": () => setPlaying(!timeline.playing), n: () => { setPlaying(false); goTo(timeline.index + 1, true); },
                 p: () => { setPlaying(false); goTo(timeline.index - 1, true); }, v: topDown };
  keys.ArrowRight = keys.n; keys.ArrowLeft = keys.p;
  for (const [key, id] of [["j", "show-trajectory"], ["t", "show-templates"], ["l", "show-sight"]]) {
    keys[key] = () => { const box = document.getElementById(id); box.checked = !box.checked; applyToggles(); };
  }
  window.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" && e.target.type !== "checkbox" || !keys[e.key]) return;
    e.preventDefault();
    keys[e.key]();
  });

  // ---- drawing -------------------------------------------------------------------------------
  let pending = false;
  let started = false;  // the first frame waits for the table's paint (its images decode a moment after)
  function inView(point) {  // where a point is in the view, CSS pixels from its top left
    return projected(point, view.clientWidth, view.clientHeight);
  }
  function onPage(at) {  // a place in the view as the page's (the window's) CSS pixels
    const v = view.getBoundingClientRect();
    return [at[0] + v.left, at[1] + v.top];
  }
  function tagPlace(modelId) {
    const mini = miniatures[modelId];
    return mini.group.visible ? inView(mini.group.position) : null;
  }
  function screenOf(modelId) {  // where a miniature's base centre is on the page, CSS pixels
    const at = tagPlace(modelId);
    return at ? onPage(at) : null;
  }
  function tableCorners() {  // where the table top's four corners are on the page, CSS pixels
    return [[0, 0], [table.width, 0], [table.width, table.depth], [0, table.depth]]
      .map(([x, y]) => onPage(inView(new THREE.Vector3(x, y, 0))));
  }
  function tableBox() {  // the box around the whole table (frame and tallest roofs) on the page
    const box = hullBox(view.clientWidth, view.clientHeight), v = view.getBoundingClientRect();
    return { left: box.left + v.left, top: box.top + v.top, right: box.right + v.left, bottom: box.bottom + v.top };
  }
  function render() {
    pending = false;
    renderer.render(scene, camera);
    const active = steps[timeline.index] ? steps[timeline.index].model : null;
    const shown = [];
    for (const [id, mini] of Object.entries(miniatures)) {
      const at = tagPlace(id);
      mini.tag.style.display = at ? "" : "none";
      mini.tag.classList.toggle("active", id === active);
      if (at) shown.push({ id: id, tag: mini.tag, at: at });
    }
    for (const [id, npc] of Object.entries(npcs)) {  // a carried NPC's tag steps up over its holder's
      const mark = npc.mark;
      const at = !mark ? null : mark.holder ? tagPlace(mark.holder)
        : inView(new THREE.Vector3(mark.at[0], mark.at[1], mark.at[2] + 1.4));
      npc.tag.style.display = at ? "" : "none";
      if (at) shown.push({ id: "npc:" + id, tag: npc.tag, at: at });
    }
    placeTags(shown, active);
    window.entropy3dShare.frames++;
  }
  // name tags stand over their riders; where two would cover each other (riders side by side,
  // a small screen) the one farther back steps up above the other: the active rider's first,
  // then from the front of the table to its back
  function placeTags(shown, active) {
    const placed = [];
    shown.sort((a, b) => (b.id === active) - (a.id === active) || b.at[1] - a.at[1]);
    for (const item of shown) {
      const w = item.tag.offsetWidth, h = item.tag.offsetHeight;
      let top = item.at[1] - 1.3 * h;  // as the tag's style translates it (-50%, -130%)
      const left = item.at[0] - w / 2;
      for (let tries = 0; tries < placed.length; tries++) {
        const under = placed.find((p) => left < p.left + p.w && p.left < left + w && top < p.top + p.h && p.top < top + h);
        if (!under) break;
        top = under.top - h - 1;
      }
      placed.push({ left: left, top: top, w: w, h: h });
      item.tag.style.left = item.at[0] + "px";
      item.tag.style.top = (top + 1.3 * h) + "px";
    }
  }
  function redraw() { if (!pending && started) { pending = true; requestAnimationFrame(render); } }
  // one column (a phone upright, see page.html): the table as wide as the view and as tall as its
  // own shape seen from the home view needs, no more (the words below get the rest) and no less
  // than it takes to be as wide as the screen
  function tableHeight(width) {
    camera.aspect = 1;
    camera.updateProjectionMatrix();
    const square = { left: 0, top: 0, right: 1000, bottom: 1000 };
    frame(HOME.yaw, homePitch(), square, 1000, 1000);
    const box = hullBox(1000, 1000);
    const shape = (box.bottom - box.top) / Math.max(1, box.right - box.left);
    const margin = Math.max(4, 0.015 * width);
    return Math.round(Math.min(Math.max(shape * (width - 2 * margin) + 2 * margin, 0.45 * width),
                               0.62 * window.innerHeight));
  }
  function resize() {
    const keep = { target: orbit.target.clone(), distance: orbit.distance, yaw: orbit.yaw, pitch: orbit.pitch };
    document.body.style.setProperty("--bar", document.getElementById("bar").offsetHeight + "px");
    if (COLUMN.matches && steps.length) {
      document.body.style.setProperty("--table-h", tableHeight(view.clientWidth) + "px");
    }
    renderer.setSize(view.clientWidth, view.clientHeight, false);
    camera.aspect = view.clientWidth / Math.max(1, view.clientHeight);
    camera.updateProjectionMatrix();
    if (framed) reframe(); else Object.assign(orbit, keep);
    placeCamera();
  }
  window.addEventListener("resize", resize);

  // what a test (or a curious reader in the console) can ask the page
  window.entropy3dShare = { frames: 0, steps: steps.length, goTo: goTo, topDown: topDown, screenOf: screenOf,
                            tableCorners: tableCorners, tableBox: tableBox, painted: false,
                            project: (p) => onPage(inView(new THREE.Vector3(p[0], p[1], p[2]))),
                            index: () => timeline.index, renderNow: render,
                            shown: (id) => miniatures[id].group.visible,
                            // t ride seconds into the step shown (a still of the step's motion)
                            at: (t) => { timeline.t = t; show(); },
                            piece: (id) => [scenery[id].pivot.position.x, scenery[id].pivot.position.y,
                                            scenery[id].pivot.visible] };
  document.getElementById("name").textContent = data.name;
  document.body.classList.toggle("replay", steps.length > 0);
  applyToggles();
  resize();
  goTo(-1, false);
  Promise.all(painting).then(() => {
    window.entropy3dShare.painted = true;
    started = true;
    resize();
  });
})();
