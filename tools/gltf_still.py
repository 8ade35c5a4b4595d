"""A still of an exported table (.glb) as a web viewer draws it: three.js's GLTFLoader in headless
Chromium, both as installed (the three.js build and GLTFLoader trimesh ships for its offline viewer
page, Debian's chromium and chromedriver, SwiftShader for WebGL). Nothing of entropy3d draws the
picture, so it shows what a person opening the file in a glTF viewer sees.

    python tools/gltf_still.py table.glb -o docs/gltf_export.png [--size 1280x800] [--palette]

The camera looks at the table from the south-east, high, as the film's iso view does; the lights
are a sky/ground hemisphere and a sun from the film's sun direction (glTF axes).
"""

from __future__ import annotations

import argparse
import base64
import io
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import numpy as np
from PIL import Image

from entropy3d.look.light import SUN_DIRECTION
from entropy3d.share.library import TEMPLATE_ZIP

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--enable-unsafe-swiftshader", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--host-resolver-rules=MAP * ~NOTFOUND")
#: where trimesh's viewer page stops being three.js, TrackballControls and GLTFLoader
LOADER_END = "THREE.GLTFLoader=GLTFLoader;})();"

PAGE = """<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0;overflow:hidden}</style></head>
<body><script>%(library)s</script><script>
const glb = Uint8Array.from(atob("%(glb)s"), c => c.charCodeAt(0)).buffer;
const renderer = new THREE.WebGLRenderer({antialias: true, preserveDrawingBuffer: true});
renderer.setSize(%(width)d, %(height)d);
renderer.outputEncoding = THREE.sRGBEncoding;
document.body.appendChild(renderer.domElement);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0xdfe3e8);
scene.add(new THREE.HemisphereLight(0xdde4f0, 0x4a4038, 0.9));
const sun = new THREE.DirectionalLight(0xfff4e0, 1.6);
sun.position.set(%(sun)s);
scene.add(sun);
new THREE.GLTFLoader().parse(glb, "", gltf => {
  scene.add(gltf.scene);
  const box = new THREE.Box3().setFromObject(gltf.scene);
  const centre = box.getCenter(new THREE.Vector3()), size = box.getSize(new THREE.Vector3());
  const camera = new THREE.PerspectiveCamera(33, %(width)d / %(height)d, 0.01, 100);
  const reach = Math.max(size.x, size.z);
  camera.position.set(centre.x + 0.68 * reach, centre.y + 1.25 * reach, centre.z + 1.32 * reach);
  camera.lookAt(centre.x + 0.03 * reach, 0.0, centre.z + 0.1 * reach);
  renderer.render(scene, camera);
  window.stillReady = true;
}, error => { window.stillError = String(error); });
</script></body></html>"""


def loader_library() -> str:
    """three.js, TrackballControls and GLTFLoader from trimesh's offline viewer page."""
    from trimesh.resources import get_bytes

    with zipfile.ZipFile(io.BytesIO(get_bytes(TEMPLATE_ZIP))) as archive:
        page = archive.read(archive.namelist()[0]).decode("utf-8")
    start, end = page.find("/**\n * @license"), page.find(LOADER_END)
    if start < 0 or end < 0:
        raise SystemExit(f"trimesh's {TEMPLATE_ZIP} no longer holds three.js and GLTFLoader")
    return page[start:end + len(LOADER_END)]


def still(glb: Path, output: Path, width: int, height: int, palette: bool = False) -> None:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    sun = (SUN_DIRECTION[0], SUN_DIRECTION[2], -SUN_DIRECTION[1])  # table x, y, z -> glTF x, z, -y
    page = PAGE % {"library": loader_library(), "glb": base64.b64encode(glb.read_bytes()).decode("ascii"),
                   "width": width, "height": height, "sun": ", ".join(f"{v:.4f}" for v in sun)}
    with tempfile.TemporaryDirectory() as folder:
        html = Path(folder) / "still.html"
        html.write_text(page, encoding="utf-8")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in (*FLAGS, f"--window-size={width},{height}", f"--user-data-dir={folder}/profile"):
            options.add_argument(flag)
        driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
        try:
            driver.get(html.as_uri())
            deadline = time.monotonic() + 120
            while not driver.execute_script("return window.stillReady || window.stillError || null"):
                if time.monotonic() > deadline:
                    raise SystemExit(f"{glb}: the viewer drew nothing in 120 s")
                time.sleep(0.2)
            error = driver.execute_script("return window.stillError || null")
            if error:
                raise SystemExit(f"{glb}: GLTFLoader refused it: {error}")
            data = driver.execute_script("return document.querySelector('canvas').toDataURL('image/png')")
        finally:
            driver.quit()
    picture = Image.open(io.BytesIO(base64.b64decode(data.split(",", 1)[1]))).convert("RGB")
    if palette:  # a docs picture: 256 colours, dithered, about a third the bytes
        picture = picture.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.FLOYDSTEINBERG)
    picture.save(output, optimize=True)
    colours = len(np.unique(np.asarray(picture.convert("RGB")).reshape(-1, 3), axis=0))
    print(f"wrote {output} ({width}x{height}, {output.stat().st_size // 1000} kB, {colours} colours)")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("glb", type=Path)
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("--size", default="1280x800", help="WIDTHxHEIGHT pixels")
    parser.add_argument("--palette", action="store_true", help="256 colours, dithered (smaller, for docs/)")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.lower().split("x"))
    still(args.glb, args.output, width, height, args.palette)


if __name__ == "__main__":
    main(sys.argv[1:])
