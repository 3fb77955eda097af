// The three.js stage: renderer, camera, orbit controls, lights, ground and grid. Knows nothing of IK.

import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";

export class Stage {
  /**
   * @param {HTMLElement} container the element the canvas fills
   * @param {{position: number[], target: number[]}} view the initial camera
   */
  constructor(container, view) {
    this.container = container;
    const renderer = new THREE.WebGLRenderer({ antialias: true });
    renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    renderer.shadowMap.enabled = true;
    renderer.shadowMap.type = THREE.PCFShadowMap;
    renderer.outputColorSpace = THREE.SRGBColorSpace;
    renderer.toneMapping = THREE.ACESFilmicToneMapping;
    container.appendChild(renderer.domElement);
    this.renderer = renderer;

    const scene = new THREE.Scene();
    scene.background = new THREE.Color(0x1b1f27);
    scene.fog = new THREE.Fog(0x1b1f27, 14, 38);
    this.scene = scene;

    this.camera = new THREE.PerspectiveCamera(45, 1, 0.05, 200);
    this.camera.position.fromArray(view.position);
    this.controls = new OrbitControls(this.camera, renderer.domElement);
    this.controls.target.fromArray(view.target);
    this.controls.enableDamping = true;
    this.controls.maxPolarAngle = Math.PI * 0.495;
    this.controls.update();

    scene.add(new THREE.HemisphereLight(0xdde6ff, 0x3a3226, 1.1));
    const sun = new THREE.DirectionalLight(0xffffff, 2.2);
    sun.position.set(4, 9, 5);
    sun.castShadow = true;
    sun.shadow.mapSize.set(1024, 1024);
    const s = sun.shadow.camera;
    s.left = -6; s.right = 6; s.top = 6; s.bottom = -6; s.near = 1; s.far = 30;
    sun.shadow.bias = -0.0005;
    scene.add(sun);

    const ground = new THREE.Mesh(
      new THREE.CircleGeometry(30, 64).rotateX(-Math.PI / 2),
      new THREE.MeshStandardMaterial({ color: 0x2a2f38, roughness: 0.95, metalness: 0.0 }),
    );
    ground.receiveShadow = true;
    scene.add(ground);
    const grid = new THREE.GridHelper(30, 60, 0x4a5262, 0x353b47);
    grid.position.y = 0.002;
    scene.add(grid);

    this.resize = this.resize.bind(this);
    window.addEventListener("resize", this.resize);
    this.resize();
  }

  resize() {
    const { clientWidth: w, clientHeight: h } = this.container;
    if (!w || !h) return;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
  }

  render() {
    this.controls.update();
    this.renderer.render(this.scene, this.camera);
  }
}
