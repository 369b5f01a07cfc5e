// Builds the explorer into one self-contained HTML file: esbuild bundles
// main.js (with ext-apps' App and d3-force) into a minified ES module,
// which goes inline into index.html with style.css. The output depends
// only on these sources and the locked packages, so rebuilding gives the
// same bytes (scripts/view-build.sh --check relies on it).
//
//   node build.mjs OUT.html
import { build } from "esbuild";
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[2];
if (!out) {
  console.error("usage: node build.mjs OUT.html");
  process.exit(2);
}
// zod (ext-apps' dependency) re-exports every error-message locale as one
// namespace, which the bundle cannot shed; the view speaks English, so the
// locale index resolves to English alone (a quarter of a megabyte less).
const englishOnly = {
  name: "zod-english-only",
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes("/zod/") ? { path: "zod-locales", namespace: "zod-locales", pluginData: dirname(args.importer) } : undefined);
    b.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: 'export { default as en } from "../locales/en.js";',
      resolveDir: args.pluginData,
      loader: "js",
    }));
  },
};
const result = await build({
  plugins: [englishOnly],
  entryPoints: [join(here, "main.js")],
  bundle: true,
  format: "esm",
  target: "es2022",
  platform: "browser",
  minify: true,
  legalComments: "none",
  charset: "utf8",
  write: false,
  logLevel: "warning",
});
const script = result.outputFiles[0].text.replaceAll("</script", "<\\/script");
const css = (await readFile(join(here, "style.css"), "utf8")).trim();
const page = await readFile(join(here, "index.html"), "utf8");
if (!page.includes("/*STYLE*/") || !page.includes("/*SCRIPT*/")) throw new Error("index.html lost its /*STYLE*/ or /*SCRIPT*/ placeholder");
const html = page.replace("/*STYLE*/", () => "\n" + css + "\n").replace("/*SCRIPT*/", () => script.trim());
await writeFile(out, html);
console.error(`view: wrote ${out} (${html.length} bytes)`);
