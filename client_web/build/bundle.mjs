// Bundles each page's script with its imports into one file for serving
// (`npm run bundle`, run by `make setup`): `.bundle/<script>` for `app.mjs`,
// `tournament.mjs`, `rules.mjs` and `overlay.mjs`, their source maps, and
// `.bundle/manifest.json`, which names every file each bundle was built from with its
// SHA-256 as it was when the build began. The server serves a bundle only while every one
// of those files still has that hash (server/edge/bundle.py): a file saved during the
// build, or sources copied in later with older times (a checkout, `rsync -a`, an image's
// layers), never pass for what the bundle holds.

import { createHash } from "node:crypto";
import { mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = join(ROOT, ".bundle");
const SCRIPTS = ["app.mjs", "tournament.mjs", "rules.mjs", "overlay.mjs"];
/** What a bundle may be built from: the client's modules and the one npm package it loads. */
const SOURCES = [".", "i18n", "node_modules/@msgpack/msgpack/dist.esm"];

/** Every `.mjs` file of a folder and its subfolders (relative, `/`-separated). @param {string} dir */
async function modules(dir) {
  const found = [];
  for (const entry of await readdir(join(ROOT, dir), { withFileTypes: true, recursive: dir !== "." })) {
    if (!entry.isFile() || !entry.name.endsWith(".mjs")) continue;
    found.push(relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join("/"));
  }
  return found;
}

/** @param {string} path relative to the client folder */
async function sha256(path) {
  return createHash("sha256").update(await readFile(join(ROOT, path))).digest("hex");
}

// The hashes first: a file saved from now on no longer matches them.
/** @type {Map<string, string>} */
const before = new Map();
for (const dir of SOURCES) for (const path of await modules(dir)) before.set(path, await sha256(path));

await rm(OUT, { recursive: true, force: true });
await mkdir(OUT, { recursive: true });
const result = await build({
  absWorkingDir: ROOT,
  entryPoints: SCRIPTS,
  bundle: true,
  format: "esm",
  target: "es2022",
  minify: true,
  keepNames: true,
  sourcemap: true,
  outdir: OUT,
  outExtension: { ".js": ".mjs" },
  metafile: true,
  logLevel: "warning",
});

/** @type {Record<string, Record<string, string>>} */
const scripts = {};
for (const [output, built] of Object.entries(result.metafile.outputs)) {
  if (!built.entryPoint) continue;
  const inputs = Object.keys(built.inputs);
  // A file read that was not among the hashed sources cannot be checked: no bundle.
  const missing = inputs.filter((path) => !before.has(path));
  if (missing.length) throw new Error(`${output}: built from files outside the client's sources: ${missing.join(", ")}`);
  scripts[built.entryPoint] = Object.fromEntries(inputs.map((path) => [path, /** @type {string} */ (before.get(path))]));
}
await writeFile(join(OUT, "manifest.json"), `${JSON.stringify({ scripts }, null, 1)}\n`);
