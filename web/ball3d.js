// ball3d.js: Chessball's board as the ball it is: the truncated
// icosahedron's 32 fields (from the module's web_ball, the same solid as
// `tabula render chessball --svg`) drawn with three.js, turned with the
// mouse or a finger (OrbitControls), each field named on hover, and
// clicks passed to the board's square selection. Pieces and marks come
// from the same view the flat board draws.
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

const MARK = { path: 0xf6f669, target: 0x7fbf7f, last: 0xcdd26a };
// A label shows where its field's centre faces the eye with a cosine above
// RIM_HIDE, fully from RIM_HIDE + RIM_FADE.
const RIM_HIDE = 0.3;
const RIM_FADE = 0.2;

export class Ball3D {
  // el: a container element; faces: Tabula.ball(); onSelect(name);
  // onHover(text): the name (and detail) of the field under the pointer.
  constructor(el, faces, { onSelect, onHover }) {
    this.el = el;
    this.faces = faces;
    this.onSelect = onSelect;
    this.onHover = onHover;
    this.renderer = new THREE.WebGLRenderer({ antialias: true,
      preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(window.devicePixelRatio);
    el.replaceChildren(this.renderer.domElement);
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0xfafafa);
    this.camera = new THREE.PerspectiveCamera(35, 1, 0.1, 100);
    // Seen from over the equator at longitude 0, the north pole (a) up.
    this.camera.up.set(0, 0, 1);
    // Near enough that the ball fills most of its square (at 9.3 it took
    // half of it), far enough that its rim stays inside when turned.
    this.camera.position.set(6.3, 0, 1.75);
    this.scene.add(new THREE.AmbientLight(0xffffff, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.4);
    sun.position.set(5, 3, 6);
    this.scene.add(sun);
    this.controls = new OrbitControls(this.camera, this.renderer.domElement);
    this.controls.enablePan = false;
    this.controls.minDistance = 5;
    this.controls.maxDistance = 20;
    this.controls.addEventListener('change', () => this.render());
    this.meshes = new Map(); // name -> mesh
    this.labels = new Map(); // name -> sprite
    this.group = new THREE.Group();
    this.scene.add(this.group);
    for (const f of faces) this.addFace(f);
    this.raycaster = new THREE.Raycaster();
    const el2 = this.renderer.domElement;
    let down = null;
    el2.addEventListener('pointerdown', (e) => { down = [e.clientX, e.clientY]; });
    el2.addEventListener('pointerup', (e) => {
      // A click, not the end of a turn of the ball.
      if (down && Math.hypot(e.clientX - down[0], e.clientY - down[1]) < 5) {
        const name = this.pick(e);
        if (name) this.onSelect(name);
      }
      down = null;
    });
    el2.addEventListener('pointermove', (e) => {
      const name = this.pick(e);
      this.onHover(name ? this.describe(name) : '');
    });
    this.resize();
    new ResizeObserver(() => this.resize()).observe(el);
  }

  addFace(f) {
    const c = f.verts.reduce((a, v) => a.map((x, i) => x + v[i] / f.verts.length),
      [0, 0, 0]);
    const pos = [];
    for (let k = 0; k < f.verts.length; k++) {
      pos.push(...c, ...f.verts[k], ...f.verts[(k + 1) % f.verts.length]);
    }
    const geo = new THREE.BufferGeometry();
    geo.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
    geo.computeVertexNormals();
    const base = f.pentagon ? 0x3a3a3a : 0xf2f2f2;
    const mesh = new THREE.Mesh(geo, new THREE.MeshLambertMaterial({ color: base }));
    mesh.userData = { name: f.name, base };
    this.group.add(mesh);
    const edges = new THREE.LineSegments(new THREE.EdgesGeometry(geo, 30),
      new THREE.LineBasicMaterial({ color: 0x888888 }));
    this.group.add(edges);
    this.meshes.set(f.name, mesh);
    this.centres ??= new Map();
    this.centres.set(f.name, new THREE.Vector3(...c));
  }

  describe(name) {
    const cell = this.cells?.get(name);
    return cell?.detail ? `${name}: ${cell.detail}` : name;
  }

  pick(e) {
    const r = this.renderer.domElement.getBoundingClientRect();
    const p = new THREE.Vector2(((e.clientX - r.left) / r.width) * 2 - 1,
      -((e.clientY - r.top) / r.height) * 2 + 1);
    this.raycaster.setFromCamera(p, this.camera);
    const hit = this.raycaster.intersectObjects([...this.meshes.values()])[0];
    return hit ? hit.object.userData.name : null;
  }

  // Pieces from the view's cells (matched by field name) and marks
  // (name -> 'path' | 'target' | 'last').
  show(view, marks) {
    this.cells = new Map();
    for (const row of view.cells) for (const cell of row)
      if (cell.name) this.cells.set(cell.name, cell);
    for (const [name, mesh] of this.meshes) {
      const m = marks.get(name);
      mesh.material.color.setHex(m ? MARK[m] : mesh.userData.base);
      const old = this.labels.get(name);
      if (old) { this.group.remove(old); old.material.map.dispose(); }
      const cell = this.cells.get(name);
      const sprite = this.label(name, cell?.glyph ?? '', cell?.owner ?? -1);
      sprite.position.copy(this.centres.get(name)).multiplyScalar(1.04);
      this.group.add(sprite);
      this.labels.set(name, sprite);
    }
    this.render();
  }

  // A sprite with the field's piece (large) and name (small).
  label(name, glyph, owner) {
    const cv = document.createElement('canvas');
    cv.width = cv.height = 128;
    const g = cv.getContext('2d');
    g.textAlign = 'center';
    g.textBaseline = 'middle';
    if (glyph) {
      g.font = 'bold 72px system-ui, sans-serif';
      g.lineWidth = 8;
      g.strokeStyle = owner === 0 ? '#000' : '#fff';
      g.fillStyle = owner === 0 ? '#fff' : '#000';
      g.strokeText(glyph, 64, 58);
      g.fillText(glyph, 64, 58);
    }
    g.font = '26px system-ui, sans-serif';
    g.fillStyle = '#c33';
    g.fillText(name, 64, glyph ? 112 : 64);
    const tex = new THREE.CanvasTexture(cv);
    const sprite = new THREE.Sprite(new THREE.SpriteMaterial({ map: tex,
      depthTest: true, transparent: true }));
    sprite.scale.set(0.55, 0.55, 1);
    return sprite;
  }

  resize() {
    const w = this.el.clientWidth || 400;
    this.renderer.setSize(w, w);
    this.camera.aspect = 1;
    this.camera.updateProjectionMatrix();
    this.render();
  }

  // Labels of fields seen at a glancing angle fade out, then go: near
  // the rim they would crowd onto each other (the flat map below still
  // shows every field).
  render() {
    const eye = this.camera.position.clone().normalize();
    for (const [name, sprite] of this.labels) {
      const facing = this.centres.get(name).clone().normalize().dot(eye);
      sprite.visible = facing > RIM_HIDE;
      sprite.material.opacity = Math.min(1, (facing - RIM_HIDE) / RIM_FADE);
    }
    this.renderer.render(this.scene, this.camera);
  }
}
