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
const keepNames = process.env.CONSOLE_WASM_NAMES === "1";
binaryen.setDebugInfo(keepNames);
// What the code was built with (wasm32's defaults in Rust 1.95), as the CLI's --enable-reference-
// types, --enable-bulk-memory, --enable-nontrapping-float-to-int, --enable-sign-ext,
// --enable-multivalue and --enable-mutable-globals enable them (`wasm-opt --print-features`).
const F = binaryen.Features;
const features = F.MutableGlobals | F.NontrappingFPToInt | F.BulkMemory | F.BulkMemoryOpt |
  F.SignExt | F.ReferenceTypes | F.CallIndirectOverlong | F.Multivalue;

// The name section dropped before reading, unless names are kept: binaryen does not know the
// label names wasm-split writes (subsection 3) and said so once per function, 1,400 lines of a
// build's output; without debug info it would drop the section anyway (the same bytes out).
function withoutNames(bytes) {
  const kept = [bytes.subarray(0, 8)];
  let at = 8;
  const leb = () => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < bytes.length) {
    const start = at;
    const id = bytes[at++];
    const size = leb();
    const end = at + size;
    const named = id === 0 && (() => {
      const length = leb();
      return Buffer.from(bytes.subarray(at, at + length)).toString() === "name";
    })();
    if (!named) kept.push(bytes.subarray(start, end));
    at = end;
  }
  return Buffer.concat(kept);
}

for (const file of files) {
  const bytes = readFileSync(file);
  const module = binaryen.readBinary(keepNames ? bytes : withoutNames(bytes));
  module.setFeatures(features);
  module.optimize();
  // The sections naming the features and the tools: only tools read them.
  module.runPasses(["strip-target-features", "strip-producers"]);
  writeFileSync(file, module.emitBinary());
  module.dispose();
}
