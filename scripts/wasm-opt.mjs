// wasm-opt -Oz over many modules in one process: `node scripts/wasm-opt.mjs BINARYEN FILE…`,
// each file optimized in place. BINARYEN is binaryen.js's index.js (the npm package
// scripts/setup.sh installs). The split console is ~170 modules, most of them small: the CLI
// starts node and compiles binaryen once per module, which took most of the build's time
// after cargo (142 s on two cores against 35 s for this in one process, byte for byte the same
// output).
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [binaryenPath, ...files] = process.argv.slice(2);
const { default: binaryen } = await import(pathToFileURL(binaryenPath));

// -Oz, with the Stack IR optimizations the CLI's writer applies at that level.
binaryen.setOptimizeLevel(2);
binaryen.setShrinkLevel(2);
binaryen.setGenerateStackIR(true);
binaryen.setOptimizeStackIR(true);
// The functions' names kept, for a CPU profile that names them (the environment_page bench's
// PROFILE): CONSOLE_WASM_NAMES=1 bash scripts/build-console.sh.
binaryen.setDebugInfo(process.env.CONSOLE_WASM_NAMES === "1");
// What the code was built with (wasm32's defaults in Rust 1.95), as the CLI's --enable-reference-
// types, --enable-bulk-memory, --enable-nontrapping-float-to-int, --enable-sign-ext,
// --enable-multivalue and --enable-mutable-globals enable them (`wasm-opt --print-features`).
const F = binaryen.Features;
const features = F.MutableGlobals | F.NontrappingFPToInt | F.BulkMemory | F.BulkMemoryOpt |
  F.SignExt | F.ReferenceTypes | F.CallIndirectOverlong | F.Multivalue;

for (const file of files) {
  const module = binaryen.readBinary(readFileSync(file));
  module.setFeatures(features);
  module.optimize();
  // The sections naming the features and the tools: only tools read them.
  module.runPasses(["strip-target-features", "strip-producers"]);
  writeFileSync(file, module.emitBinary());
  module.dispose();
}
